import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, it } from 'node:test'
import { runReindexProcedure, type ReindexProgress } from '../../src/indexer/index.ts'
import { createFts5Store } from '../../src/search/index.ts'

// RabbitMQ's management API is the edge of the world here: a stand-in answers what the real one was
// measured to answer (RabbitMQ 3.x): no `messages` for the first seconds, then a count that
// lags by about the sampling interval.
async function scripted (routes: Record<string, Array<[number, unknown]>>): Promise<{ url: string, server: Server, requests: string[] }> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    const key = `${request.method} ${request.url}`
    requests.push(`${key} ${request.headers.authorization ?? ''}`.trim())
    const script = routes[key]
    const [status, body] = script === undefined ? [404, {}] : (script.length > 1 ? script.shift() : script[0]) as [number, unknown]
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests }
}

describe('the re-index procedure following a RabbitMQ pending count', () => {
  const servers: Server[] = []
  afterEach(() => { for (const server of servers.splice(0)) server.close() })

  it('waits out a missing and a stale `messages` and trusts a 0 only once the statistics caught up', async () => {
    const indexer = await scripted({
      'POST /api/reindex': [[202, { queued: 5 }]],
      'GET /api/outbox': [[200, { unpublished: 3 }], [200, { unpublished: 0 }]]
    })
    const management = await scripted({
      'GET /api/queues/%2F/flex.indexelastic.indexdeduped.queue': [
        [200, { name: 'q' }], // no statistics yet
        [200, { messages: 0 }], // sampled before the relay published
        [200, { messages: 5 }], [200, { messages: 2 }], [200, { messages: 0 }]
      ]
    })
    servers.push(indexer.server, management.server)
    let clock = 0
    const seen: Array<number | undefined> = []
    const store = createFts5Store({ path: ':memory:' })
    const result = await runReindexProcedure({
      store,
      indexer: { url: indexer.url },
      management: { url: management.url.replace('http://', 'http://guest:guest@') },
      pollMs: 1000,
      statsLagMs: 6000,
      now: () => clock,
      sleep: async (ms) => { clock += ms },
      onProgress: (progress: ReindexProgress) => { seen.push(progress.pending) }
    })
    await store.close()
    assert.deepEqual(result, { rebuilt: [], queued: 5 })
    // Polls at 0 s … 7 s: handed over at 1 s, so the 0 read at 4 s is not trusted; the one at 7 s is.
    assert.deepEqual(seen, [5, 3, 0, 5, 2, 0, 0, 0, 0])
    assert.ok(management.requests.every((line) => line.endsWith(`Basic ${Buffer.from('guest:guest').toString('base64')}`)))
  })

  it('gives up with a clear message when the account does not exist', async () => {
    const indexer = await scripted({ 'POST /api/reindex': [[404, { code: 'account_not_found' }]] })
    servers.push(indexer.server)
    const store = createFts5Store({ path: ':memory:' })
    await assert.rejects(runReindexProcedure({ store, accountId: 'nope', indexer: { url: indexer.url } }), /account nope does not exist/)
    await store.close()
  })
})
