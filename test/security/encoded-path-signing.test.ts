import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'

// Whether a request is signed is decided by the route it matched, never by the raw URL: the router
// decodes `%76` to `v`, so `/%762/labels` reaches `/v2/labels` and must be checked like it.

/** The route's URL with parameters filled and the `v` of `/v2` percent-encoded. */
function encodedPath (url: string): string {
  return url.replace(/:[a-z_]+/g, 'ffffffffffffffffffffffffffffffff').replace('*', '%2FA').replace(/^\/v2\//, '/%762/')
}

for (const variant of ['api', 'cdn'] as const) {
  describe(`percent-encoded paths on the ${variant} listener`, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp('sqlite', {}, variant) })
    after(async () => { await t.close() })

    it('refuses every signed route unsigned when its path is percent-encoded, before any handler runs', async () => {
      const signed = t.app.routeTable.filter((route) => route.config?.public !== true && route.url.startsWith('/v2/'))
      assert.ok(signed.length > 20, `only ${signed.length} signed routes found`)
      for (const route of signed) {
        for (const method of [route.method].flat()) {
          if (method === 'HEAD' || method === 'OPTIONS') continue
          const res = await t.app.inject({ method, url: encodedPath(route.url), payload: method === 'GET' || method === 'DELETE' ? undefined : '{}' })
          if (variant === 'cdn' && method !== 'GET') {
            assert.equal(res.statusCode, 405, `${method} ${route.url}`)
            continue
          }
          assert.equal(res.statusCode, 400, `${method} ${route.url}: ${res.body}`)
          assert.equal(res.json().message, 'These parameters are missing: api_key, signature, expires.')
        }
      }
    })

    it('verifies a signature over the path as received, so an encoded path that was signed is served', async () => {
      const res = await t.signed('GET', '/%762/labels')
      assert.equal(res.statusCode, 200, res.body)
      const wrong = await t.app.inject({ method: 'GET', url: (await signedUrl(t, '/v2/labels')).replace('/v2/', '/%762/') })
      assert.equal(wrong.statusCode, 401, 'a signature over /v2/labels does not fit /%762/labels')
    })
  })
}

async function signedUrl (t: TestApp, path: string): Promise<string> {
  const { signedPath } = await import('../../src/signing/index.ts')
  return signedPath({ apiKey: t.admin.apiKey, secret: t.admin.secret, method: 'GET', path, expires: Math.floor(t.clock.now() / 1000) + 600 })
}
