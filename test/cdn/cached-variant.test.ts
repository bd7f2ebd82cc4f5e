import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { snapshot } from '../support/app.ts'
import { DOCUMENTED_DELAY_MS, within } from '../freshness/pair.ts'
import { creditHeaders, startHarness, storeKinds, type Harness, type Instance } from '../credits-http/harness.ts'

const MINUTE = Date.UTC(2026, 10, 22, 10, 0, 0)
const TTL = 300
/** A fixed `expires` years ahead, as embedded apps use (docs/credits-and-cache.md). */
const FAR = Math.floor(Date.UTC(2031, 0, 1) / 1000)

for (const backend of databaseBackends()) {
  for (const store of storeKinds()) {
    describe(`cached variant on ${backend.name} with ${store.name} cache`, { skip: backend.skip || store.skip }, () => {
      let h: Harness
      let cdn: Instance
      before(async () => {
        h = await startHarness(backend.name, store, { CDN_TTL_SECONDS: String(TTL) })
        cdn = await h.instance('cdn')
      })
      after(async () => { await h.close() })

      const get = async (url: string, method: 'GET' | 'HEAD' = 'GET', on: Instance = cdn) => await on.app.inject({ method, url })

      it('answers a first GET as a MISS and the second identical GET as a HIT that costs nothing', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(10)
        const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
        const miss = await get(url)
        assert.equal(miss.statusCode, 200)
        assert.equal(miss.headers['x-cache'], 'MISS')
        assert.equal(miss.headers['cache-control'], 'public, max-age=0')
        assert.match(String(miss.headers.etag), /^"[\w-]{22}"$/)
        assert.equal(miss.headers.age, '0')
        assert.deepEqual(creditHeaders(miss), { credits: 9, reset: 45 })
        h.clock.advance(7_500)
        const hit = await get(url)
        assert.equal(hit.statusCode, 200)
        assert.equal(hit.headers['x-cache'], 'HIT')
        assert.equal(hit.headers['cache-control'], 'public, max-age=0')
        assert.equal(hit.headers.etag, miss.headers.etag)
        assert.equal(hit.headers.age, '7')
        assert.equal(hit.headers['content-type'], 'application/json; charset=utf-8')
        assert.equal(hit.body, miss.body)
        // A peek of the account's balance: the hit did not charge it.
        assert.deepEqual(creditHeaders(hit), { credits: 9, reset: 38 })
        const balance = await get(h.url('GET', '/v2/remaining_credits_and_reset_time', { as: caller }))
        assert.equal(balance.json().remaining_credits, 9)
      })

      it('serves hits even when the account has no credits left', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(1)
        const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
        assert.equal((await get(url)).statusCode, 200)
        const hit = await get(url)
        assert.equal(hit.statusCode, 200)
        assert.equal(hit.headers['x-cache'], 'HIT')
        assert.deepEqual(creditHeaders(hit), { credits: 0, reset: 45 })
        const other = await get(h.url('GET', '/v2/users', { as: caller, expires: FAR }))
        assert.equal(other.statusCode, 429)
      })

      it('purges the cached answer when a PATCH on the main service changes it: the next GET is a MISS showing the change', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(100)
        const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
        const list = h.url('GET', '/v2/users', { as: caller, expires: FAR })
        const label = (await h.signed(h.api, 'POST', '/v2/labels', { as: caller, body: { name: 'Untouched' } })).json()
        const unrelated = h.url('GET', `/v2/labels/${label.id as string}`, { as: caller, expires: FAR })
        assert.equal((await get(url)).json().name, 'Administrator')
        assert.equal((await get(list)).headers['x-cache'], 'MISS')
        assert.equal((await get(unrelated)).headers['x-cache'], 'MISS')
        assert.equal((await get(url)).headers['x-cache'], 'HIT')
        const patched = await h.signed(h.api, 'PATCH', `/v2/users/${caller.userId}`, { as: caller, body: { name: 'Renamed' } })
        assert.equal(patched.statusCode, 200)
        const fresh = await get(url)
        assert.equal(fresh.headers['x-cache'], 'MISS')
        assert.equal(fresh.json().name, 'Renamed')
        const freshList = await get(list)
        assert.equal(freshList.headers['x-cache'], 'MISS')
        assert.deepEqual(freshList.json().items.map((user: { name: string }) => user.name), ['Renamed'])
        // Stored again; the api's context announces the write on the bus too, which this context (another
        // listener in the same test process) may hear after the first store and purge once more.
        await within(DOCUMENTED_DELAY_MS, async () => (await get(url)).headers['x-cache'] === 'HIT', 'stored again')
        // What the write did not change stays a hit.
        assert.equal((await get(unrelated)).headers['x-cache'], 'HIT')
      })

      it('answers If-None-Match with the current ETag by a 304 without a body, on a miss and on a hit', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(100)
        const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
        const first = await get(url)
        const etag = String(first.headers.etag)
        const revalidated = await cdn.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } })
        assert.equal(revalidated.statusCode, 304)
        assert.equal(revalidated.body, '')
        assert.equal(revalidated.headers.etag, etag)
        assert.equal(revalidated.headers['x-cache'], 'HIT')
        const other = h.url('GET', '/v2/users', { as: caller, expires: FAR })
        const listEtag = String((await get(other)).headers.etag)
        await h.signed(h.api, 'PATCH', `/v2/users/${caller.userId}`, { as: caller, body: { name: 'Changed' } })
        // The list changed: the old ETag no longer matches, so the new body is sent (a MISS, stored anew).
        const changed = await cdn.app.inject({ method: 'GET', url: other, headers: { 'if-none-match': listEtag } })
        assert.equal(changed.statusCode, 200)
        assert.notEqual(changed.headers.etag, listEtag)
        const missed = await cdn.app.inject({ method: 'GET', url: h.url('GET', '/v2/users', { as: caller, expires: FAR - 5 }), headers: { 'if-none-match': String(changed.headers.etag) } })
        assert.equal(missed.headers['x-cache'], 'MISS')
        assert.equal(missed.statusCode, 304)
      })

      it('treats a changed expires as another URL: a MISS, charged', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(10)
        const path = `/v2/users/${caller.userId}`
        assert.equal((await get(h.url('GET', path, { as: caller, expires: FAR }))).headers['x-cache'], 'MISS')
        assert.equal((await get(h.url('GET', path, { as: caller, expires: FAR }))).headers['x-cache'], 'HIT')
        const moved = await get(h.url('GET', path, { as: caller, expires: FAR + 1 }))
        assert.equal(moved.headers['x-cache'], 'MISS')
        assert.deepEqual(creditHeaders(moved), { credits: 8, reset: 45 })
      })

      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
        it(`refuses ${method} with 405 and Allow: GET, HEAD, writing nothing`, async () => {
          h.clock.set(MINUTE + 15_000)
          const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? JSON.stringify({ name: 'Changed' }) : undefined
          const path = method === 'POST' ? '/v2/users' : `/v2/users/${h.admin.userId}`
          const beforeRows = await snapshot(h.api.ctx, ['users'])
          const res = await cdn.app.inject({ method, url: h.url(method, path, { body }), payload: body })
          assert.equal(res.statusCode, 405)
          assert.equal(res.headers.allow, 'GET, HEAD')
          assert.equal(res.json().message, `The cached endpoint serves GET and HEAD only, not ${method}.`)
          assert.equal(res.headers['cache-control'], 'no-store')
          assert.equal(await snapshot(h.api.ctx, ['users']), beforeRows)
        })
      }

      it('answers HEAD from a cached GET with the same headers and no body', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(10)
        const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
        const full = await get(url)
        const head = await get(url, 'HEAD')
        assert.equal(head.statusCode, 200)
        assert.equal(head.body, '')
        assert.equal(head.headers['x-cache'], 'HIT')
        assert.equal(head.headers['content-type'], 'application/json; charset=utf-8')
        assert.equal(head.headers['content-length'], String(Buffer.byteLength(full.body)))
        assert.deepEqual(creditHeaders(head), { credits: 9, reset: 45 })
      })

      it('answers an uncached HEAD (charged), and never lets a HEAD-signed URL fill the cache for a GET', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(10)
        const headUrl = h.url('HEAD', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
        const head = await get(headUrl, 'HEAD')
        assert.equal(head.statusCode, 200)
        assert.equal(head.body, '')
        assert.equal(head.headers['x-cache'], 'MISS')
        assert.deepEqual(creditHeaders(head), { credits: 9, reset: 45 })
        assert.equal((await get(headUrl, 'HEAD')).headers['x-cache'], 'MISS')
        const asGet = await get(headUrl)
        assert.equal(asGet.statusCode, 401)
      })

      it('never caches an error: each one is checked and charged again, marked no-store', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(10)
        const url = h.url('GET', '/v2/users/ffffffffffffffffffffffffffffffff', { as: caller, expires: FAR })
        for (const left of [9, 8]) {
          const res = await get(url)
          assert.equal(res.statusCode, 404)
          assert.equal(res.headers['x-cache'], 'MISS')
          assert.equal(res.headers['cache-control'], 'no-store')
          assert.deepEqual(creditHeaders(res), { credits: left, reset: 45 })
        }
      })

      it('never caches the balance, which changes with every request', async () => {
        h.clock.set(MINUTE + 15_000)
        const caller = await h.account(10)
        const url = h.url('GET', '/v2/remaining_credits_and_reset_time', { as: caller, expires: FAR })
        assert.equal((await get(url)).json().remaining_credits, 10)
        await get(h.url('GET', '/v2/users', { as: caller }))
        const again = await get(url)
        assert.equal(again.headers['x-cache'], 'MISS')
        assert.equal(again.headers['cache-control'], 'no-store')
        assert.equal(again.json().remaining_credits, 9)
      })

      it('does not cache unsigned answers (/health)', async () => {
        const res = await get('/health')
        assert.equal(res.statusCode, 200)
        assert.equal(res.headers['cache-control'], 'no-store')
      })

      describe('what a hit checks (docs/decisions.md, "Cache hits before the signature check")', () => {
        it('refuses a cached URL once its expires has passed, even within the TTL', async () => {
          h.clock.set(MINUTE + 15_000)
          const caller = await h.account(10)
          const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: Math.floor(h.clock.now() / 1000) + 30 })
          assert.equal((await get(url)).headers['x-cache'], 'MISS')
          h.clock.advance(30_000)
          assert.equal((await get(url)).headers['x-cache'], 'HIT')
          h.clock.advance(1_000)
          const expired = await get(url)
          assert.equal(expired.statusCode, 401)
          assert.equal(expired.json().message, 'Request expired.')
          assert.equal(expired.headers['cache-control'], 'no-store')
        })

        it('refuses a cached URL at once after its secret is rotated', async () => {
          h.clock.set(MINUTE + 15_000)
          const caller = await h.account(100)
          const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
          assert.equal((await get(url)).statusCode, 200)
          assert.equal((await get(url)).headers['x-cache'], 'HIT')
          const rotated = await h.signed(h.api, 'POST', `/v2/users/${caller.userId}/secret`, { as: caller })
          assert.equal(rotated.statusCode, 200)
          const refused = await get(url)
          assert.equal(refused.statusCode, 401)
          assert.equal(refused.json().message, 'Invalid signature.')
        })

        it('misses on any change to the URL, the signature included', async () => {
          h.clock.set(MINUTE + 15_000)
          const caller = await h.account(10)
          const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
          assert.equal((await get(url)).statusCode, 200)
          const tampered = url.replace(/signature=(.)/, (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`)
          assert.equal((await get(tampered)).statusCode, 401)
        })
      })

      if (store.name === 'redis') {
        it('shares the cache between cdn processes through Redis', async () => {
          h.clock.set(MINUTE + 15_000)
          const other = await h.instance('cdn')
          const caller = await h.account(10)
          const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
          assert.equal((await get(url)).headers['x-cache'], 'MISS')
          const elsewhere = await get(url, 'GET', other)
          assert.equal(elsewhere.headers['x-cache'], 'HIT')
          assert.deepEqual(creditHeaders(elsewhere), { credits: 9, reset: 45 })
        })
      }
    })
  }
}
