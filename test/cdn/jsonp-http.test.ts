import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { creditHeaders, startHarness, storeKinds, type Harness, type Instance } from '../credits-http/harness.ts'

const MINUTE = Date.UTC(2026, 10, 22, 10, 0, 0)
const FAR = Math.floor(Date.UTC(2031, 0, 1) / 1000)
const CALLBACK_MESSAGE = 'The callback parameter must be a JavaScript identifier path (letters, digits, _, $ and dots) of at most 128 characters.'

const accepted = ['cb', 'jQuery3610_1700000000000', '$', '_', 'a.b.c', 'this.cb', 'window.$jsonp.handle_1', 'a.default', 'x'.repeat(128)]
const refused: Array<[why: string, name: string]> = [
  ['empty', ''],
  ['starting with a digit', '1cb'],
  ['a segment starting with a digit', 'a.1b'],
  ['an empty segment', 'a..b'],
  ['a leading dot', '.cb'],
  ['a trailing dot', 'cb.'],
  ['a call', 'alert(1)'],
  ['a statement', 'cb;alert(1)'],
  ['a hyphen', 'my-cb'],
  ['a space', 'my cb'],
  ['markup', '<script>'],
  ['a reserved word first', 'new'],
  ['import', 'import'],
  ['a non-ASCII letter', 'café'],
  ['129 characters', 'x'.repeat(129)],
  ['brackets', 'a["b"]']
]

for (const backend of databaseBackends()) {
  for (const store of storeKinds()) {
    describe(`JSONP on ${backend.name} with ${store.name} cache`, { skip: backend.skip || store.skip }, () => {
      let h: Harness
      let cdn: Instance
      before(async () => {
        h = await startHarness(backend.name, store)
        cdn = await h.instance('cdn')
      })
      after(async () => { await h.close() })

      it('wraps a 200 as name(<json>) with the exact bytes, as text/javascript with nosniff, on a miss and on a hit', async () => {
        h.clock.set(MINUTE + 20_000)
        const caller = await h.account(10)
        const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR, params: { callback: 'app.users.show' } })
        const expected = `app.users.show({"id":"${caller.userId}","name":"Administrator","role":"administrator","api_key":"${caller.apiKey}",` +
          '"created_at":"2026-11-22T10:00:20Z","updated_at":"2026-11-22T10:00:20Z"})'
        for (const cache of ['MISS', 'HIT']) {
          const res = await cdn.app.inject({ method: 'GET', url })
          assert.equal(res.statusCode, 200)
          assert.equal(res.body, expected)
          assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8')
          assert.equal(res.headers['x-content-type-options'], 'nosniff')
          assert.equal(res.headers['content-length'], String(Buffer.byteLength(expected)))
          assert.equal(res.headers['x-cache'], cache)
          assert.equal(res.headers['cache-control'], 'public, max-age=0')
        }
        // The same resource without a callback is another URL, answered as bare JSON.
        const bare = await cdn.app.inject({ method: 'GET', url: h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR }) })
        assert.equal(bare.headers['x-cache'], 'MISS')
        assert.equal(`app.users.show(${bare.body})`, expected)
      })

      it('wraps an error as a 200 carrying the real status inside, exact bytes, never cached', async () => {
        h.clock.set(MINUTE + 20_000)
        const caller = await h.account(10)
        const missing = 'ffffffffffffffffffffffffffffffff'
        const url = h.url('GET', `/v2/users/${missing}`, { as: caller, expires: FAR, params: { callback: 'cb' } })
        const expected = `cb({"message":"User ${missing} does not exist.","type":"${h.config.publicApiUrl}/docs/errors#user_not_found","title":"User not found",` +
          `"status":404,"detail":"User ${missing} does not exist.","code":"user_not_found","request_id":"jsonp-404"})`
        for (const left of [9, 8]) {
          const res = await cdn.app.inject({ method: 'GET', url, headers: { 'x-request-id': 'jsonp-404' } })
          assert.equal(res.statusCode, 200)
          assert.equal(res.body, expected)
          assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8')
          assert.equal(res.headers['x-content-type-options'], 'nosniff')
          assert.equal(res.headers['x-cache'], 'MISS')
          assert.equal(res.headers['cache-control'], 'no-store')
          assert.deepEqual(creditHeaders(res), { credits: left, reset: 40 })
        }
      })

      it('wraps a failed signature too, with its 401 inside', async () => {
        h.clock.set(MINUTE + 20_000)
        const caller = await h.account(10)
        const url = h.url('GET', '/v2/users', { as: { ...caller, secret: 'q'.repeat(40) }, expires: FAR, params: { callback: 'cb' } })
        const res = await cdn.app.inject({ method: 'GET', url, headers: { 'x-request-id': 'jsonp-401' } })
        assert.equal(res.statusCode, 200)
        assert.match(res.body, /^cb\(\{"message":"Invalid signature\.","type":"https:\/\/[^"]+\/docs\/errors#signature_invalid","title":"Invalid signature","status":401,"detail":"The signature does not match\. .*\}\)$/)
        const wrapped = JSON.parse(res.body.slice('cb('.length, -1))
        assert.deepEqual([wrapped.code, wrapped.request_id, wrapped.string_to_sign.path], ['signature_invalid', 'jsonp-401', '/v2/users'])
      })

      it('escapes U+2028 and U+2029 inside the wrapped JSON, on a miss and on a hit', async () => {
        h.clock.set(MINUTE + 20_000)
        const caller = await h.account(10)
        const renamed = await h.signed(h.api, 'PATCH', `/v2/users/${caller.userId}`, { as: caller, body: { name: 'a\u2028b\u2029c' } })
        assert.equal(renamed.statusCode, 200)
        const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, params: { callback: 'cb' } })
        const miss = await cdn.app.inject({ method: 'GET', url })
        assert.ok(miss.body.includes('"name":"a\\u2028b\\u2029c"'), miss.body)
        assert.ok(!/[\u2028\u2029]/.test(miss.body))
        // The rename's purge reaches this process through the bus, possibly after the first GET began (its
        // answer is then not stored): ask until one is a hit.
        let hit = await cdn.app.inject({ method: 'GET', url })
        for (let tries = 0; hit.headers['x-cache'] !== 'HIT' && tries < 50; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          hit = await cdn.app.inject({ method: 'GET', url })
        }
        assert.equal(hit.headers['x-cache'], 'HIT')
        assert.equal(hit.body, miss.body)
        assert.equal(hit.headers['content-length'], String(Buffer.byteLength(miss.body)))
        const head = await cdn.app.inject({ method: 'HEAD', url })
        assert.deepEqual([head.headers['x-cache'], head.headers['content-length'], head.body], ['HIT', String(Buffer.byteLength(miss.body)), ''])
      })

      for (const name of accepted) {
        it(`accepts the callback name ${JSON.stringify(name.length > 40 ? `${name.slice(0, 8)}…(${name.length})` : name)}`, async () => {
          h.clock.set(MINUTE + 20_000)
          const res = await cdn.app.inject({ method: 'GET', url: h.url('GET', '/v2/remaining_credits_and_reset_time', { params: { callback: name } }) })
          assert.equal(res.statusCode, 200)
          assert.ok(res.body.startsWith(`${name}({"remaining_credits":`), res.body)
          assert.ok(res.body.endsWith('})'))
        })
      }

      for (const [why, name] of refused) {
        it(`refuses the callback name ${JSON.stringify(name.length > 40 ? `${name.slice(0, 8)}…(${name.length})` : name)} (${why}) with a plain 400, before the signature check`, async () => {
          h.clock.set(MINUTE + 20_000)
          const caller = await h.account(10)
          const res = await cdn.app.inject({ method: 'GET', url: h.url('GET', '/v2/users', { as: caller, params: { callback: name } }), remoteAddress: '192.0.2.99' })
          assert.equal(res.statusCode, 400)
          assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
          assert.equal(res.json().message, CALLBACK_MESSAGE)
          assert.equal(res.json().code, 'callback_invalid')
          // Charged to the client address, like every request refused before authentication.
          const balance = await cdn.app.inject({ method: 'GET', url: h.url('GET', '/v2/remaining_credits_and_reset_time', { as: caller }) })
          assert.equal(balance.json().remaining_credits, 10)
        })
      }

      it('refuses callback on the main service with 400, wrapped in nothing', async () => {
        h.clock.set(MINUTE + 20_000)
        const res = await h.signed(h.api, 'GET', '/v2/users', { params: { callback: 'cb' } })
        assert.equal(res.statusCode, 400)
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
        assert.equal(res.json().message, 'JSONP is served only by the cached endpoint.')
        assert.equal(res.json().code, 'jsonp_not_allowed')
      })
    })
  }
}
