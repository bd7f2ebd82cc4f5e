import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { computeSignature, parseQueryPairs } from '../../src/signing/index.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, snapshot, type Caller, type TestApp } from '../support/app.ts'

/** Signs a raw query string exactly as given (so tests control encoding and order). */
function rawSigned (caller: Caller, method: string, path: string, rawQuery: string, body?: Buffer | string): string {
  const pairs = parseQueryPairs(rawQuery)
  const signature = computeSignature({ secret: caller.secret, method, path, pairs, body })
  return `${path}?${rawQuery}&signature=${encodeURIComponent(signature)}`
}

for (const backend of databaseBackends()) {
  describe(`authentication on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let future: number
    before(async () => {
      t = await buildTestApp(backend.name)
      future = Math.floor(t.clock.now() / 1000) + 600
    })
    after(async () => { await t.close() })

    const auth = (caller: Caller, expires = future): string => `api_key=${encodeURIComponent(caller.apiKey)}&expires=${expires}`

    it('accepts a signed GET and answers 200 JSON', async () => {
      const res = await t.signed('GET', '/v2/users')
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
      assert.ok(typeof res.headers['x-request-id'] === 'string')
    })

    it('signs the path as it appears in the request line (percent-encoded)', async () => {
      const encoded = `/v2/users/%${t.admin.userId.charCodeAt(0).toString(16)}${t.admin.userId.slice(1)}`
      const res = await t.app.inject({ method: 'GET', url: rawSigned(t.admin, 'GET', encoded, auth(t.admin)) })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.json().id, t.admin.userId)
    })

    it('decodes + as a space in values before signing', async () => {
      const url = rawSigned(t.admin, 'GET', '/v2/users', `${auth(t.admin)}&note=a+b%2Bc`)
      assert.equal(canonicalNote(url), 'a b+c')
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 200)
    })

    it('accepts parameters in any order', async () => {
      const url = rawSigned(t.admin, 'GET', '/v2/users', `expires=${future}&zeta=1&api_key=${t.admin.apiKey}&alpha=2`)
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 200)
    })

    it('accepts a signature whose + arrived unencoded (as a space)', async () => {
      for (let i = 0; i < 40; i++) {
        const url = rawSigned(t.admin, 'GET', '/v2/users', `${auth(t.admin)}&n=${i}`)
        const sig = decodeURIComponent(url.split('&signature=')[1] as string)
        if (!sig.includes('+')) continue
        const res = await t.app.inject({ method: 'GET', url: url.replace(/&signature=.*$/, `&signature=${sig}`) })
        assert.equal(res.statusCode, 200)
        return
      }
      assert.fail('no signature with a + in 40 tries')
    })

    it('ignores a stray body on GET and on DELETE (signed as empty)', async () => {
      const get = await t.app.inject({ method: 'GET', url: rawSigned(t.admin, 'GET', '/v2/users', auth(t.admin)), payload: 'stray body', headers: { 'content-type': 'text/plain' } })
      assert.equal(get.statusCode, 200)
      const user = await t.userWithRole('read_only')
      const del = await t.app.inject({ method: 'DELETE', url: rawSigned(t.admin, 'DELETE', `/v2/users/${user.userId}`, auth(t.admin)), payload: '{"stray":true}', headers: { 'content-type': 'application/json' } })
      assert.equal(del.statusCode, 200, del.body)
      assert.deepEqual(del.json(), {})
    })

    it('signs a non-UTF-8 (ISO-8859-1) body as the raw bytes received, then refuses it as not UTF-8, writing nothing', async () => {
      const body = Buffer.from('{"name":"Caf\xe9","role":"read_only"}', 'latin1')
      const beforeRows = await snapshot(t.ctx, ['users'])
      const res = await t.app.inject({ method: 'POST', url: rawSigned(t.admin, 'POST', '/v2/users', auth(t.admin), body), payload: body })
      assert.equal(res.statusCode, 400)
      assert.equal(res.json().message, 'Request body must be UTF-8 encoded JSON.')
      assert.equal(await snapshot(t.ctx, ['users']), beforeRows)
      // Signed over the UTF-8 re-encoding instead of the bytes sent: the signature does not match.
      const wrong = await t.app.inject({ method: 'POST', url: rawSigned(t.admin, 'POST', '/v2/users', auth(t.admin), body.toString('latin1')), payload: body })
      assert.equal(wrong.statusCode, 401)
    })

    it('accepts expires in milliseconds (no upper bound)', async () => {
      const res = await t.app.inject({ method: 'GET', url: rawSigned(t.admin, 'GET', '/v2/users', auth(t.admin, t.clock.now() + 3_600_000)) })
      assert.equal(res.statusCode, 200)
    })

    it('refuses a body with bytes after the JSON value, writing nothing', async () => {
      const beforeRows = await snapshot(t.ctx, ['users'])
      for (const body of ['{"name":"x","role":"read_only"}garbage', '{"name":"x","role":"read_only"}\u0000', '{"name":"x","role":"read_only"}{}']) {
        const res = await t.app.inject({ method: 'POST', url: rawSigned(t.admin, 'POST', '/v2/users', auth(t.admin), body), payload: body })
        assert.equal(res.statusCode, 400, body)
        assert.equal(res.json().message, 'Request body is not valid JSON.')
      }
      assert.equal(await snapshot(t.ctx, ['users']), beforeRows)
    })

    it('treats an empty body, "" and {} as no fields whatever the Content-Type', async () => {
      const user = await t.userWithRole('read_only')
      for (const [body, type] of [['', 'text/plain'], ['""', 'application/x-www-form-urlencoded'], ['{}', 'application/json'], ['{}', '']] as const) {
        const res = await t.app.inject({ method: 'PATCH', url: rawSigned(t.admin, 'PATCH', `/v2/users/${user.userId}`, auth(t.admin), body), payload: body, headers: type === '' ? {} : { 'content-type': type } })
        assert.equal(res.statusCode, 200, `${JSON.stringify(body)} ${type}: ${res.body}`)
      }
    })

    // The bad-input table for authentication: request → exact status and message; nothing written.
    const badRequests: Array<{ name: string, url: () => string, method?: string, body?: string, status: number, message: string }> = [
      { name: 'no parameters', url: () => '/v2/users', status: 400, message: 'These parameters are missing: api_key, signature, expires.' },
      { name: 'api_key missing', url: () => rawSigned(t.admin, 'GET', '/v2/users', `expires=${future}`), status: 400, message: 'These parameters are missing: api_key.' },
      { name: 'expires missing', url: () => rawSigned(t.admin, 'GET', '/v2/users', `api_key=${t.admin.apiKey}`), status: 400, message: 'These parameters are missing: expires.' },
      { name: 'signature missing', url: () => `/v2/users?${auth(t.admin)}`, status: 400, message: 'These parameters are missing: signature.' },
      { name: 'signature empty', url: () => `/v2/users?${auth(t.admin)}&signature=`, status: 400, message: 'These parameters are missing: signature.' },
      { name: 'duplicated parameter', url: () => rawSigned(t.admin, 'GET', '/v2/users', `${auth(t.admin)}&limit=1&limit=2`), status: 400, message: 'These parameters appear more than once: limit.' },
      { name: 'duplicated api_key', url: () => rawSigned(t.admin, 'GET', '/v2/users', `${auth(t.admin)}&api_key=x`), status: 400, message: 'These parameters appear more than once: api_key.' },
      { name: 'malformed percent-encoding', url: () => `/v2/users?${auth(t.admin)}&x=%E0%A4%A&signature=abc`, status: 400, message: 'Malformed percent-encoding in query string: %E0%A4%A' },
      { name: 'expires not an integer', url: () => rawSigned(t.admin, 'GET', '/v2/users', `api_key=${t.admin.apiKey}&expires=soon`), status: 400, message: 'Parameter expires must be an integer Unix timestamp.' },
      { name: 'expires negative', url: () => rawSigned(t.admin, 'GET', '/v2/users', `api_key=${t.admin.apiKey}&expires=-5`), status: 400, message: 'Parameter expires must be an integer Unix timestamp.' },
      { name: 'expires in the past', url: () => rawSigned(t.admin, 'GET', '/v2/users', auth(t.admin, future - 601)), status: 401, message: 'Request expired.' },
      { name: 'unknown api key', url: () => rawSigned({ ...t.admin, apiKey: `${t.admin.accountCode}.nosuchkey` }, 'GET', '/v2/users', `api_key=${t.admin.accountCode}.nosuchkey&expires=${future}`), status: 401, message: 'Invalid signature.' },
      { name: 'api key without account code', url: () => rawSigned(t.admin, 'GET', '/v2/users', `api_key=nodot&expires=${future}`), status: 401, message: 'Invalid signature.' },
      { name: 'wrong secret', url: () => rawSigned({ ...t.admin, secret: 'x'.repeat(40) }, 'GET', '/v2/users', auth(t.admin)), status: 401, message: 'Invalid signature.' },
      { name: 'signature of another path', url: () => rawSigned(t.admin, 'GET', '/v2/users/x', auth(t.admin)).replace('/v2/users/x?', '/v2/users?'), status: 401, message: 'Invalid signature.' },
      { name: 'signature of another method', method: 'POST', body: '{"name":"n","role":"read_only"}', url: () => rawSigned(t.admin, 'GET', '/v2/users', auth(t.admin)), status: 401, message: 'Invalid signature.' },
      { name: 'body changed after signing', method: 'POST', body: '{"name":"m","role":"administrator"}', url: () => rawSigned(t.admin, 'POST', '/v2/users', auth(t.admin), '{"name":"n","role":"read_only"}'), status: 401, message: 'Invalid signature.' },
      { name: 'callback on the main service', url: () => rawSigned(t.admin, 'GET', '/v2/users', `${auth(t.admin)}&callback=cb`), status: 400, message: 'JSONP is served only by the cached endpoint.' }
    ]
    for (const row of badRequests) {
      it(`answers ${row.status} for ${row.name}`, async () => {
        const beforeRows = await snapshot(t.ctx, ['users'])
        const res = await t.app.inject({ method: (row.method ?? 'GET') as 'GET', url: row.url(), payload: row.body })
        assert.equal(res.statusCode, row.status, res.body)
        const body = res.json()
        assert.equal(body.message, row.message)
        assert.equal(body.status, row.status)
        assert.equal(body.request_id, res.headers['x-request-id'])
        assert.equal(await snapshot(t.ctx, ['users']), beforeRows)
      })
    }

    it('serves problem+json when asked', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v2/users', headers: { accept: 'application/problem+json' } })
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8')
      assert.equal(res.json().code, 'parameters_missing')
    })

    it('keeps a sane client X-Request-Id and replaces an insane one', async () => {
      const kept = await t.signed('GET', '/v2/users', { headers: { 'x-request-id': 'abc-123' } })
      assert.equal(kept.headers['x-request-id'], 'abc-123')
      const replaced = await t.signed('GET', '/v2/users', { headers: { 'x-request-id': 'has space\u00e9' } })
      assert.notEqual(replaced.headers['x-request-id'], 'has space\u00e9')
    })
  })
}

function canonicalNote (url: string): string | undefined {
  return new Map(parseQueryPairs(url.split('?')[1] as string)).get('note')
}
