import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'

// Every 401 carries a challenge naming our scheme (RFC 9110 §11.6.1; docs/api.md, "Signing").
const CHALLENGE = 'Reelhouse-Signature realm="reelhouse", params="api_key expires signature"'

describe('401 answers', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite') })
  after(async () => { await t.close() })

  it('carry WWW-Authenticate with our scheme on a wrong signature', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v2/labels?api_key=${t.admin.apiKey}&expires=${Math.floor(t.clock.now() / 1000) + 60}&signature=nope` })
    assert.equal(res.statusCode, 401)
    assert.equal(res.headers['www-authenticate'], CHALLENGE)
  })

  it('carry it on an expired request too, and never on other statuses', async () => {
    const expired = await t.signed('GET', '/v2/labels', { expires: Math.floor(t.clock.now() / 1000) - 10 })
    assert.equal(expired.statusCode, 401)
    assert.equal(expired.headers['www-authenticate'], CHALLENGE)
    const missing = await t.app.inject({ method: 'GET', url: '/v2/labels' })
    assert.equal(missing.statusCode, 400)
    assert.equal(missing.headers['www-authenticate'], undefined)
    assert.equal((await t.signed('GET', '/v2/labels')).headers['www-authenticate'], undefined)
  })
})
