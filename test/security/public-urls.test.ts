import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config/index.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

// Absolute URLs in answers come from PUBLIC_API_URL / PUBLIC_CDN_URL, never from the request's Host:
// a cached answer must not carry a host a caller chose (docs/security.md).

const [sqlite] = databaseBackends()

describe('absolute URLs in answers', { skip: sqlite?.skip }, () => {
  for (const variant of ['api', 'cdn'] as const) {
    describe(`on the ${variant} listener`, () => {
      let t: TestApp
      const configured = variant === 'api' ? 'https://media.example.com/reelhouse' : 'http://cdn.example.com'
      before(async () => {
        t = await buildTestApp('sqlite', { PUBLIC_API_URL: 'https://media.example.com/reelhouse/', PUBLIC_CDN_URL: 'http://cdn.example.com' }, variant)
      })
      after(async () => { await t.close() })

      it('links a feed to the configured address whatever Host the request names', async () => {
        const apiApp = variant === 'api' ? t : undefined
        const created = apiApp === undefined
          ? (await t.ctx.services.syndications.create({ ...t.admin, role: 'administrator' }, { name: 'Feed', type: 'mrss' }))
          : (await t.signed('POST', '/v2/syndications', { body: { name: 'Feed', type: 'mrss' } })).json()
        for (const host of ['evil.example', 'localhost:80', 'media.example.com:1']) {
          const res = await t.app.inject({ method: 'GET', url: created.feed_url, headers: { host, 'x-forwarded-host': 'evil.example' } })
          assert.equal(res.statusCode, 200, res.body)
          assert.ok(!res.body.includes('evil.example'), `Host ${host} leaked into the feed`)
          assert.match(res.body, new RegExp(`<link>${configured.replace(/[.]/g, '\\.')}/v2/syndications/`))
          assert.ok(res.body.includes(`href="${configured}/v2/syndications/${created.id as string}/feed?pcode=`), 'atom:link rel=self')
        }
      })
    })
  }
})

describe('PUBLIC_API_URL and PUBLIC_CDN_URL', () => {
  const base = { REELHOUSE_DATA_DIR: '/tmp/reelhouse-public-urls' }

  it('default to the listeners\' own addresses, a wildcard host read as localhost', () => {
    const config = loadConfig({ ...base, API_PORT: '9443', CDN_PORT: '9080' })
    assert.equal(config.publicApiUrl, 'https://localhost:9443')
    assert.equal(config.publicCdnUrl, 'http://localhost:9080')
    const bound = loadConfig({ ...base, HOST: '10.0.0.5' })
    assert.equal(bound.publicApiUrl, 'https://10.0.0.5:8443')
  })

  it('keep a path prefix without its trailing slash', () => {
    assert.equal(loadConfig({ ...base, PUBLIC_API_URL: 'https://example.com/api/' }).publicApiUrl, 'https://example.com/api')
  })

  for (const [name, value, expected] of [
    ['PUBLIC_API_URL', 'ftp://example.com', 'a URL with scheme http or https'],
    ['PUBLIC_API_URL', 'not a url', 'a URL (http, https)'],
    ['PUBLIC_CDN_URL', 'http://example.com/?a=1', 'an http(s) URL without credentials, query or fragment'],
    ['PUBLIC_CDN_URL', 'http://user:hunter2@example.com', 'an http(s) URL without credentials, query or fragment']
  ] as const) {
    it(`refuse ${name}=${value} at start, naming the variable and never echoing a password`, () => {
      assert.throws(() => loadConfig({ ...base, [name]: value }), (error: Error) => {
        assert.ok(error instanceof ConfigError)
        assert.ok(error.message.includes(name) && error.message.includes(expected), error.message)
        assert.ok(!error.message.includes('hunter2'), error.message)
        return true
      })
    })
  }
})
