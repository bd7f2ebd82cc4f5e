import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createOpenSearchStore } from '../../src/search/opensearch-store.ts'
import { engineBackend } from './engine-backend.ts'
import { startFakeSearchEngine } from './fake-search-engine.ts'
import { asset, searchStoreContract } from './search-store-contract.ts'

// The OpenSearch stand-in never sends x-elastic-product: the OpenSearch client must not need it.
searchStoreContract('OpenSearch (stand-in)', engineBackend('opensearch', createOpenSearchStore))

describe('OpenSearch store', () => {
  it('works against an Elasticsearch 8 server too, wildcard refusal and product header included', async () => {
    const engine = await startFakeSearchEngine('elasticsearch')
    const store = createOpenSearchStore({ node: engine.url, prefix: 'flex-account' })
    await store.upsert('acc1', [asset('a1', { name: 'Café' })])
    assert.deepEqual(await store.search('acc1', { clauses: [{ field: 'name', text: 'cafe' }] }), ['a1'])
    assert.deepEqual(await store.deleteAllIndices(), ['flex-account-acc1-v1'])
    assert.ok(engine.exchanges.every(({ request }) => !(request.method === 'DELETE' && request.path.includes('*'))))
    await store.close()
    await engine.close()
  })

  it('sends basic auth credentials taken from the URL', async () => {
    const engine = await startFakeSearchEngine('opensearch')
    const store = createOpenSearchStore({ node: engine.url, auth: { username: 'indexer', password: 's3cret' }, prefix: 'flex-account' })
    await store.ensureIndex('acc1')
    assert.equal(engine.exchanges[0].request.authorization, `Basic ${Buffer.from('indexer:s3cret').toString('base64')}`)
    await store.close()
    await engine.close()
  })
})
