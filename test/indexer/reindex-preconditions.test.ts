import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, afterEach, before, describe, it } from 'node:test'
import { runReindexProcedure } from '../../src/indexer/index.ts'
import { createFts5Store, type SearchStore } from '../../src/search/index.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

// `reelhouse reindex` proves every step can run before it deletes anything, and `/ready` does not say
// `search: ok` while an account's index is missing or empty (docs/search-and-indexing.md).
const ACCOUNT = 'a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0'
const doc = { type: 'asset' as const, id: 'kept', fields: { name: 'still searchable' } }

/** An indexing service that answers every request with `status`, recording what it was asked. */
async function standIn (status: number): Promise<{ url: string, server: Server, requests: string[] }> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    response.writeHead(status, { 'content-type': 'application/json' }).end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests }
}

describe('the re-index procedure checks its preconditions before deleting', () => {
  let store: SearchStore
  const servers: Server[] = []
  before(async () => {
    store = createFts5Store({ path: ':memory:' })
    await store.upsert(ACCOUNT, [doc])
  })
  afterEach(() => { for (const server of servers.splice(0)) server.close() })
  after(async () => { await store.close() })

  it('refuses when the indexing service refuses the credentials, and the index is untouched', async () => {
    const indexer = await standIn(401)
    servers.push(indexer.server)
    await assert.rejects(runReindexProcedure({ store, indexer: { url: indexer.url } }), /indexing service refused our credentials \(401\).*Nothing was changed/)
    assert.equal(await store.count(ACCOUNT), 1)
    assert.ok(!indexer.requests.some((line) => line.startsWith('POST')), 'nothing was queued')
  })

  it('refuses when the indexing service is unreachable, and the index is untouched', async () => {
    const indexer = await standIn(200)
    const { url } = indexer
    await new Promise((resolve) => indexer.server.close(resolve))
    await assert.rejects(runReindexProcedure({ store, indexer: { url } }), /indexing service: .*unreachable.*Nothing was changed/)
    assert.equal(await store.count(ACCOUNT), 1)
  })

  it('refuses when RabbitMQ\'s management API refuses the credentials', async () => {
    const indexer = await standIn(200)
    const management = await standIn(401)
    servers.push(indexer.server, management.server)
    await assert.rejects(runReindexProcedure({ store, indexer: { url: indexer.url }, management: { url: management.url } }), /management API refused our credentials/)
    assert.equal(await store.count(ACCOUNT), 1)
  })

  it('refuses when the search store cannot be written', async () => {
    const indexer = await standIn(200)
    servers.push(indexer.server)
    const closed = createFts5Store({ path: ':memory:' })
    await closed.close()
    await assert.rejects(runReindexProcedure({ store: closed, indexer: { url: indexer.url } }), /search store is not reachable or not writable.*Nothing was changed/)
    assert.deepEqual(indexer.requests, ['GET /ready'])
  })
})

describe('/ready and an index that is missing or empty', () => {
  const apps: TestApp[] = []
  after(async () => { for (const t of apps) await t.close() })

  it('says reindex required while an account holds resources and its index is missing', async () => {
    const t = await buildTestApp('sqlite')
    apps.push(t)
    assert.equal((await t.signed('POST', '/v2/labels', { body: { name: 'Unindexed' } })).statusCode, 200)
    const res = await t.app.inject({ method: 'GET', url: '/ready' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().status, 'degraded')
    assert.match(res.json().checks.search, new RegExp(`^reindex required: ${t.ctx.search.indexName(t.admin.accountId)} missing or empty`))
  })

  it('says ok once the account\'s index holds its documents', async () => {
    const t = await buildTestApp('sqlite')
    apps.push(t)
    const label = (await t.signed('POST', '/v2/labels', { body: { name: 'Indexed' } })).json()
    await t.ctx.search.upsert(t.admin.accountId, [{ type: 'label', id: label.id, fields: { name: 'Indexed' } }])
    const res = await t.app.inject({ method: 'GET', url: '/ready' })
    assert.equal(res.json().checks.search, 'ok', res.body)
  })
})
