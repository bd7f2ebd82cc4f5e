import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { APIConnectionError, RateLimitError, type FetchLike, type Reelhouse } from 'reelhouse/client'
import { createIdempotencyStore } from '../../src/http/idempotency/index.ts'
import { requestFingerprint } from '../../src/http/idempotency/fingerprint.ts'
import { databaseBackends } from '../support/backends.ts'
import { droppingProxy, type DroppingProxy } from './support/dropping-proxy.ts'
import { startClientServer, type ClientServer } from './support/client-server.ts'

const MINUTE = 60_000

for (const backend of databaseBackends()) {
  describe(`retries against a server that drops the first connection, on ${backend.name}`, { skip: backend.skip }, () => {
    let server: ClientServer
    let direct: Reelhouse
    let proxy: DroppingProxy
    before(async () => {
      server = await startClientServer(backend.name)
      direct = server.client()
    })
    after(async () => { await server?.close() })
    const through = async (options: Parameters<ClientServer['client']>[0] = {}): Promise<Reelhouse> => {
      await proxy?.close()
      proxy = await droppingProxy(server.baseUrl)
      return server.client({ baseUrl: proxy.url, ...options })
    }
    const named = async (name: string): Promise<string[]> => (await direct.labels.list().toArray()).filter((label) => label.name === name).map((label) => label.id)
    after(async () => { await proxy?.close() })

    it('retries a GET', async () => {
      const client = await through()
      assert.deepEqual(await client.labels.list().toArray(), [])
      assert.equal(proxy.connections(), 2)
    })

    it('does not retry a POST without an idempotency key: the error says so, and the label exists once', async () => {
      const client = await through({ autoIdempotencyKeys: false })
      await assert.rejects(client.labels.create({ name: 'Unkeyed' }), APIConnectionError)
      assert.equal(proxy.connections(), 1)
      assert.equal((await named('Unkeyed')).length, 1, 'the server had applied it: a blind retry would have made two')
    })

    it('retries a POST with its automatic idempotency key once, and the server applies it once', async () => {
      const client = await through()
      const label = await client.labels.create({ name: 'Keyed' })
      assert.equal(proxy.connections(), 2)
      assert.deepEqual(await named('Keyed'), [label.id])
    })

    it('retries a PATCH with the caller\'s own key once, and a PUT and a DELETE without one', async () => {
      const [target] = await named('Keyed')
      assert.ok(target !== undefined)
      let client = await through()
      assert.equal((await client.labels.update(target, { name: 'Keyed 2' }, { idempotencyKey: 'rename-keyed' })).name, 'Keyed 2')
      assert.equal(proxy.connections(), 2)
      client = await through()
      assert.equal((await client.labels.replace(target, { name: 'Keyed 3' })).name, 'Keyed 3')
      assert.equal(proxy.connections(), 2)
      client = await through()
      await client.labels.delete(target)
      assert.equal(proxy.connections(), 2)
      assert.deepEqual(await named('Keyed 3'), [])
    })

    it('waits while another attempt with the same key is still running (409 with Retry-After), then gets its answer', async () => {
      const body = JSON.stringify({ name: 'Waited for' })
      const owner = { accountId: server.admin.accountId, userId: server.admin.userId, key: 'held-elsewhere' }
      const store = createIdempotencyStore(server.ctx.db)
      const held = await store.claim(owner, requestFingerprint('POST', '/v2/labels', [], Buffer.from(body)), server.clock.now())
      assert.equal(held.kind, 'claimed')
      const statuses: number[] = []
      const fetch: FetchLike = async (url, init) => {
        const response = await globalThis.fetch(url, init)
        statuses.push(response.status)
        // The first attempt ends (it gives its claim back) once the client has been told to wait.
        if (response.status === 409 && held.kind === 'claimed') await store.release(owner, held.token)
        return response
      }
      const label = await server.client({ fetch }).labels.create({ name: 'Waited for' }, { idempotencyKey: 'held-elsewhere' })
      assert.deepEqual(statuses, [409, 200])
      assert.deepEqual(await named('Waited for'), [label.id])
    })
  })

  describe(`429 with Retry-After on ${backend.name}`, { skip: backend.skip }, () => {
    let server: ClientServer
    before(async () => { server = await startClientServer(backend.name, { CREDITS_PER_MINUTE: '3' }) })
    after(async () => { await server?.close() })

    let minutes = 0
    /** The server's clock, held `before` ms ahead of the start of a minute still to come, with the credits of the minute before spent. */
    async function spentMinute (before: number): Promise<number> {
      minutes += 2
      const boundary = Math.ceil(Date.now() / MINUTE) * MINUTE + minutes * MINUTE
      server.clock.hold(boundary - before)
      const client = server.client({ maxRetries: 0 })
      for (let i = 0; i < 3; i++) await client.labels.list().firstPage()
      return boundary
    }

    it('throws RateLimitError with retryAfter and the request id when it may not retry', async () => {
      await spentMinute(1000)
      await assert.rejects(server.client({ maxRetries: 0 }).labels.list().firstPage(), (error: unknown) =>
        error instanceof RateLimitError && error.retryAfter === 1 && error.code === 'credits_exhausted' && typeof error.requestId === 'string' && error.requestId !== '')
    })

    it('waits the Retry-After seconds and retries, and the retry succeeds in the new minute', async () => {
      const boundary = await spentMinute(1000)
      const statuses: number[] = []
      const fetch: FetchLike = async (url, init) => {
        const response = await globalThis.fetch(url, init)
        statuses.push(response.status)
        // The server's minute ends while the client waits, as it would have in real time.
        if (response.status === 429) server.clock.hold(boundary + 10)
        return response
      }
      assert.deepEqual((await server.client({ fetch }).labels.list().firstPage()).items, [])
      assert.deepEqual(statuses, [429, 200])
    })

    it('does not wait longer than maxRetryDelay: a longer Retry-After throws at once', async () => {
      await spentMinute(30_000)
      const statuses: number[] = []
      const fetch: FetchLike = async (url, init) => {
        const response = await globalThis.fetch(url, init)
        statuses.push(response.status)
        return response
      }
      await assert.rejects(server.client({ fetch, maxRetryDelay: 5000 }).labels.list().firstPage(), (error: unknown) =>
        error instanceof RateLimitError && error.retryAfter === 30)
      assert.deepEqual(statuses, [429])
    })
  })
}
