// The exact requests each adapter sends, pinned by fixtures recorded from the real clients' wire
// traffic. Re-record after a deliberate change with: RECORD_SEARCH_FIXTURES=1 npm test -- test/search
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { createElasticsearchStore } from '../../src/search/elasticsearch-store.ts'
import type { SearchStore } from '../../src/search/index.ts'
import { createOpenSearchStore } from '../../src/search/opensearch-store.ts'
import type { StoreFactory } from './engine-backend.ts'
import { startFakeSearchEngine, type Flavor, type RecordedExchange } from './fake-search-engine.ts'
import { asset } from './search-store-contract.ts'

interface Step {
  step: string
  exchanges: RecordedExchange[]
}

// One of each kind of call, in the order an indexer and a reindex would make them.
const SCENARIO: Array<[string, (store: SearchStore) => Promise<unknown>]> = [
  ['ensureIndex creates a missing index with the versioned mapping', async (store) => await store.ensureIndex('acc1')],
  ['upsert sends one bulk request keyed type:id', async (store) => {
    await store.upsert('acc1', [asset('a1', { name: 'Café au lait', labels: ['/News/Sports'], metadata: { season: '1' } }),
      { type: 'label', id: 'l1', fields: { name: 'Sports', full_name: '/News/Sports', parent_id: 'l0' } }])
  }],
  ['remove sends bulk deletes', async (store) => { await store.remove('acc1', [{ type: 'asset', id: 'gone' }]) }],
  ['search filters on type and matches every word', async (store) => await store.search('acc1', {
    clauses: [{ field: 'name', text: 'cafe' }, { field: 'labels', text: 'News' }]
  })],
  ['upsert of a transcript: one bulk request of its cues and itself, after reading the cues it replaces', async (store) => {
    await store.upsert('acc1', [{ type: 'transcript', id: 'a1', fields: { cues: [{ language: 'en', start_ms: 72000, end_ms: 75500, text: 'Our quarterly coffee report' }] } }])
  }],
  ['searchTranscripts pages cues in key order', async (store) => await store.searchTranscripts('acc1', { text: 'coffee', language: 'en', assetIds: ['a1'], limit: 11 })],
  ['count by type', async (store) => await store.count('acc1', 'asset')],
  ['get by type:id', async (store) => await store.get('acc1', 'asset', 'a1')],
  ['storedMappingVersion reads _meta', async (store) => await store.storedMappingVersion('acc1')],
  ['beginRebuild creates the next version beside the live one, without the alias', async (store) => await store.beginRebuild('acc1')],
  ['upsert during a rebuild writes to the live index and the build', async (store) => {
    await store.upsert('acc1', [asset('a2', { name: 'Written during the rebuild' })])
  }],
  ['finishRebuild moves the alias and removes the old index in one _aliases request', async (store) => await store.finishRebuild('acc1')],
  ['deleteIndex deletes one index by name', async (store) => {
    await store.ensureIndex('acc2')
    await store.deleteIndex('acc2')
  }],
  ['deleteAllIndices resolves the wildcard, then deletes by name', async (store) => {
    await store.ensureIndex('acc3')
    await store.deleteAllIndices()
  }]
]

async function record (flavor: Flavor, create: StoreFactory): Promise<Step[]> {
  const engine = await startFakeSearchEngine(flavor)
  const store = create({ node: engine.url, prefix: 'flex-account' })
  const steps: Step[] = []
  for (const [step, run] of SCENARIO) {
    engine.exchanges.length = 0
    await run(store)
    steps.push({ step, exchanges: structuredClone(engine.exchanges) })
  }
  await store.close()
  await engine.close()
  return steps
}

const ADAPTERS: Array<[string, Flavor, StoreFactory]> = [
  ['elasticsearch', 'elasticsearch', createElasticsearchStore],
  ['opensearch', 'opensearch', createOpenSearchStore]
]

describe('search adapters on the wire', () => {
  for (const [name, flavor, create] of ADAPTERS) {
    it(`${name} sends exactly the recorded requests`, async () => {
      const file = new URL(`./fixtures/${name}-exchanges.json`, import.meta.url)
      const steps = await record(flavor, create)
      if (process.env.RECORD_SEARCH_FIXTURES === '1') writeFileSync(file, `${JSON.stringify(steps, null, 2)}\n`)
      const fixture = JSON.parse(readFileSync(file, 'utf8')) as Step[]
      for (const [i, expected] of fixture.entries()) {
        assert.equal(steps[i]?.step, expected.step)
        const wire = (exchanges: RecordedExchange[]): unknown[] => exchanges.map(({ request, response }) => ({ request, status: response.status }))
        assert.deepEqual(wire(steps[i].exchanges), wire(expected.exchanges), expected.step)
      }
      assert.equal(steps.length, fixture.length)
    })
  }

  it('puts the mapping version in the index mapping _meta', () => {
    const fixture = JSON.parse(readFileSync(new URL('./fixtures/elasticsearch-exchanges.json', import.meta.url), 'utf8')) as Step[]
    const create = fixture[0].exchanges.find((exchange) => exchange.request.method === 'PUT')
    assert.deepEqual((create?.request.body as { mappings: { _meta: unknown } }).mappings._meta, { mapping_version: 2 })
  })
})
