import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { signedPath } from '../../src/signing/index.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

describe('TRUST_PROXY mode (TLS terminated by a proxy)', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite', { TRUST_PROXY: 'true' }) })
  after(async () => { await t.close() })

  const url = (): string => signedPath({ apiKey: t.admin.apiKey, secret: t.admin.secret, method: 'GET', path: '/v2/users', expires: Math.floor(t.clock.now() / 1000) + 60 })

  it('refuses a request the proxy received over plain HTTP with 403', async () => {
    for (const headers of [{}, { 'x-forwarded-proto': 'http' }]) {
      const res = await t.app.inject({ method: 'GET', url: url(), headers })
      assert.equal(res.statusCode, 403)
      assert.equal(res.json().message, 'HTTPS is required.')
    }
  })

  it('serves a request forwarded as https', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(), headers: { 'x-forwarded-proto': 'https' } })
    assert.equal(res.statusCode, 200)
  })
})
