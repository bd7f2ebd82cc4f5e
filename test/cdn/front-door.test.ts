import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { creditHeaders, startHarness, storeKinds, type Harness, type Instance } from '../credits-http/harness.ts'

// The cached variant's server answers hits in front of Fastify's router (src/cdn/server-factory.ts);
// `inject` bypasses the server, so these requests go over a real socket.
const MINUTE = Date.UTC(2026, 10, 22, 10, 0, 0)
const FAR = Math.floor(Date.UTC(2031, 0, 1) / 1000)
/** Headers that differ per connection or per request, whichever path answers. */
const PER_REQUEST = new Set(['date', 'connection', 'keep-alive', 'x-request-id'])

const [backend] = databaseBackends()
for (const store of storeKinds()) {
  describe(`the cached variant's front door with ${store.name} cache`, { skip: store.skip }, () => {
    let h: Harness
    let cdn: Instance
    let base: string
    before(async () => {
      h = await startHarness(backend.name, store, { CDN_TTL_SECONDS: '300' })
      cdn = await h.instance('cdn')
      await cdn.app.listen({ host: '127.0.0.1', port: 0 })
      base = `http://127.0.0.1:${(cdn.app.server.address() as AddressInfo).port}`
    })
    after(async () => { await h.close() })

    const headersOf = (res: Response): Record<string, string> =>
      Object.fromEntries([...res.headers].filter(([name]) => !PER_REQUEST.has(name)))

    it('answers a MISS through the full pipeline, then the HIT over the socket with the headers the pipeline gives a hit', async () => {
      h.clock.set(MINUTE + 15_000)
      const caller = await h.account(10)
      const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
      const miss = await fetch(base + url)
      const missBody = await miss.text()
      assert.equal(miss.status, 200)
      assert.equal(miss.headers.get('x-cache'), 'MISS')
      h.clock.advance(4_000)
      const hit = await fetch(base + url, { headers: { 'x-request-id': 'client-chosen-id' } })
      assert.equal(hit.status, 200)
      assert.equal(await hit.text(), missBody)
      assert.equal(hit.headers.get('x-cache'), 'HIT')
      assert.equal(hit.headers.get('age'), '4')
      assert.equal(hit.headers.get('cache-control'), 'public, max-age=0')
      assert.equal(hit.headers.get('content-type'), 'application/json; charset=utf-8')
      assert.equal(hit.headers.get('content-length'), String(Buffer.byteLength(missBody)))
      assert.equal(hit.headers.get('x-request-id'), 'client-chosen-id')
      assert.deepEqual(creditHeaders(hit), { credits: 9, reset: 41 })
      // The same hit through Fastify's pipeline (inject): the same lane, the same answer.
      const injected = await cdn.app.inject({ method: 'GET', url })
      const injectedHeaders = Object.fromEntries(Object.entries(injected.headers).filter(([name]) => !PER_REQUEST.has(name)).map(([k, v]) => [k, String(v)]))
      assert.deepEqual(headersOf(hit), injectedHeaders)
      assert.equal(injected.body, missBody)
    })

    it('gives a hit a fresh request id when the client sends none or an unusable one', async () => {
      h.clock.set(MINUTE + 15_000)
      const caller = await h.account(10)
      const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR })
      await (await fetch(base + url)).text()
      const ids = []
      for (const given of [undefined, 'has spaces in it']) {
        const hit = await fetch(base + url, { headers: given === undefined ? {} : { 'x-request-id': given } })
        await hit.text()
        assert.equal(hit.headers.get('x-cache'), 'HIT')
        ids.push(hit.headers.get('x-request-id'))
      }
      for (const id of ids) assert.match(id ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      assert.notEqual(ids[0], ids[1])
    })

    it('wraps a hit in the JSONP callback its URL names, and answers HEAD with the headers and no body', async () => {
      h.clock.set(MINUTE + 15_000)
      const caller = await h.account(10)
      const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires: FAR, params: { callback: 'app.show' } })
      const miss = await fetch(base + url)
      const missBody = await miss.text()
      const hit = await fetch(base + url)
      assert.equal(hit.headers.get('x-cache'), 'HIT')
      assert.equal(await hit.text(), missBody)
      assert.match(missBody, /^app\.show\(\{"id":/)
      assert.equal(hit.headers.get('content-type'), 'text/javascript; charset=utf-8')
      assert.equal(hit.headers.get('x-content-type-options'), 'nosniff')
      const head = await fetch(base + url, { method: 'HEAD' })
      assert.equal(head.status, 200)
      assert.equal(await head.text(), '')
      assert.equal(head.headers.get('x-cache'), 'HIT')
      assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(missBody)))
    })

    it('leaves other methods, expired URLs and unsigned paths to the full pipeline', async () => {
      h.clock.set(MINUTE + 15_000)
      const caller = await h.account(10)
      const expires = Math.floor((MINUTE + 60_000) / 1000)
      const url = h.url('GET', `/v2/users/${caller.userId}`, { as: caller, expires })
      assert.equal((await fetch(base + url)).status, 200)
      assert.equal((await fetch(base + url)).headers.get('x-cache'), 'HIT')
      const post = await fetch(base + url, { method: 'POST' })
      assert.equal(post.status, 405)
      assert.equal(post.headers.get('allow'), 'GET, HEAD')
      h.clock.set(MINUTE + 61_000)
      const expired = await fetch(base + url)
      assert.equal(expired.status, 401)
      assert.equal((await expired.json() as { message: string }).message, 'Request expired.')
      const health = await fetch(`${base}/health`)
      assert.equal(health.status, 200)
      assert.equal(health.headers.get('x-cache'), 'MISS')
      assert.equal(health.headers.get('cache-control'), 'no-store')
    })
  })
}
