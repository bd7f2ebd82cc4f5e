import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Client, errors } from '@elastic/elasticsearch'
import { createElasticsearchStore } from '../../src/search/elasticsearch-store.ts'
import { engineBackend } from './engine-backend.ts'
import { startFakeSearchEngine, WILDCARD_DELETE_REFUSED, type FakeSearchEngine } from './fake-search-engine.ts'
import { asset, searchStoreContract } from './search-store-contract.ts'

searchStoreContract('Elasticsearch (stand-in for 8.x)', engineBackend('elasticsearch', createElasticsearchStore))

describe('Elasticsearch store against an Elasticsearch 8 stand-in', () => {
  let engine: FakeSearchEngine
  before(async () => { engine = await startFakeSearchEngine('elasticsearch') })
  after(async () => { await engine.close() })

  it('meets a server that refuses DELETE /flex-account* with the Elasticsearch 8 error', async () => {
    const response = await fetch(`${engine.url}/flex-account*`, { method: 'DELETE' })
    assert.equal(response.status, 400)
    assert.equal(response.headers.get('x-elastic-product'), 'Elasticsearch')
    assert.deepEqual(await response.json(), WILDCARD_DELETE_REFUSED)
  })

  it('deletes all account indices by resolving the wildcard to names first', async () => {
    const store = createElasticsearchStore({ node: engine.url, prefix: 'flex-account' })
    await store.upsert('acc1', [asset('a1', { name: 'One' })])
    await store.ensureIndex('acc2')
    engine.exchanges.length = 0
    assert.deepEqual(await store.deleteAllIndices(), ['flex-account-acc1-v1', 'flex-account-acc2-v1'])
    assert.deepEqual(engine.exchanges.map(({ request, response }) => [request.method, request.path, response.status]), [
      ['GET', '/_cat/indices/flex-account*?format=json&h=index', 200],
      ['DELETE', '/flex-account-acc1-v1%2Cflex-account-acc2-v1?ignore_unavailable=true', 200]
    ])
    assert.deepEqual([...engine.indices.keys()], [])
    await store.close()
  })

  it('splits a delete of many indices into requests Elasticsearch accepts (request line under 4 KiB)', async () => {
    const store = createElasticsearchStore({ node: engine.url, prefix: 'flex-account' })
    const accounts = Array.from({ length: 300 }, (_, i) => `${String(i).padStart(3, '0')}${'0'.repeat(29)}`)
    for (const account of accounts) await store.ensureIndex(account)
    engine.exchanges.length = 0
    const deleted = await store.deleteAllIndices()
    assert.deepEqual(deleted, accounts.map((account) => `flex-account-${account}-v1`))
    const deletes = engine.exchanges.filter(({ request }) => request.method === 'DELETE')
    assert.ok(deletes.length > 1)
    for (const { request } of deletes) {
      assert.ok(request.path.length < 4096, `${request.path.length} characters`)
      assert.ok(!request.path.includes('*'))
    }
    assert.equal(engine.indices.size, 0)
    await store.close()
  })

  it('rejects an upsert whose documents the mapping refuses, naming the failure', async () => {
    const store = createElasticsearchStore({ node: engine.url, prefix: 'flex-account' })
    await assert.rejects(store.upsert('bad', [asset('ok', { name: 'Fine' }), asset('a1', { name: 'Broken', created_at: 'yesterday' })]),
      /search bulk request: 1 item\(s\) failed, first: document_parsing_exception \[1:1\] failed to parse field \[created_at\]/)
    assert.equal(await store.count('bad'), 1, 'bulk items succeed or fail one by one')
    await store.close()
  })

  it('asks for REST compatibility with version 8, which the 9.x client defaults would not get', async () => {
    const stock = new Client({ node: engine.url })
    await assert.rejects(stock.indices.exists({ index: 'flex-account-acc1' }), (error: unknown) => {
      assert.ok(error instanceof errors.ResponseError)
      assert.equal(error.statusCode, 400)
      return true
    })
    await assert.rejects(stock.search({ index: 'x' }), /media_type_header_exception/)
    await stock.close()
    const store = createElasticsearchStore({ node: engine.url, prefix: 'flex-account' })
    assert.equal(await store.ensureIndex('acc9'), true)
    await store.close()
  })

  it('fails loudly against a server without x-elastic-product, as the Elasticsearch client demands it', async () => {
    const openSearch = await startFakeSearchEngine('opensearch')
    const store = createElasticsearchStore({ node: openSearch.url, prefix: 'flex-account' })
    await assert.rejects(store.ensureIndex('acc1'), (error: unknown) => error instanceof errors.ProductNotSupportedError)
    await store.close()
    await openSearch.close()
  })
})
