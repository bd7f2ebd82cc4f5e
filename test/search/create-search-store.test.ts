import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createSearchStore, parseSearchUrl } from '../../src/search/index.ts'
import { startFakeSearchEngine } from './fake-search-engine.ts'
import { asset } from './search-store-contract.ts'

describe('SEARCH_URL', () => {
  const table: Array<[string, ReturnType<typeof parseSearchUrl>]> = [
    ['opensearch://search:9200', { engine: 'opensearch', node: 'http://search:9200' }],
    ['opensearchs://search:9200', { engine: 'opensearch', node: 'https://search:9200' }],
    ['elasticsearch://search:9200', { engine: 'elasticsearch', node: 'http://search:9200' }],
    ['elasticsearchs://es.example.com', { engine: 'elasticsearch', node: 'https://es.example.com' }],
    ['http://search:9200', { engine: 'elasticsearch', node: 'http://search:9200' }],
    ['https://search:9200/?engine=opensearch', { engine: 'opensearch', node: 'https://search:9200' }],
    ['http://search:9200?engine=elasticsearch', { engine: 'elasticsearch', node: 'http://search:9200' }],
    ['https://proxy.example.com/es', { engine: 'elasticsearch', node: 'https://proxy.example.com/es' }],
    ['opensearchs://indexer:p%40ss@search:9200', { engine: 'opensearch', node: 'https://search:9200', auth: { username: 'indexer', password: 'p@ss' } }]
  ]
  for (const [url, expected] of table) {
    it(`reads ${url}`, () => { assert.deepEqual(parseSearchUrl(url), expected) })
  }

  const refused: Array<[string, RegExp]> = [
    ['redis://search:9200', /unsupported scheme redis:/],
    ['http://search:9200?engine=solr', /engine must be opensearch or elasticsearch/],
    ['opensearch://search:9200?engine=elasticsearch', /contradicts opensearch:/],
    ['http://search:9200?timeout=5', /unknown parameter timeout/]
  ]
  for (const [url, message] of refused) {
    it(`refuses ${url}`, () => { assert.throws(() => parseSearchUrl(url), message) })
  }
})

describe('createSearchStore', () => {
  it('embeds FTS5 when no URL is set, and needs a file for it', async () => {
    const store = await createSearchStore({ sqlitePath: ':memory:' })
    assert.equal(store.kind, 'fts5')
    assert.equal(store.indexName('acc1'), 'flex-account-acc1')
    await store.close()
    await assert.rejects(createSearchStore({ url: '' }), /needs sqlitePath/)
  })

  it('honours a configured prefix', async () => {
    const store = await createSearchStore({ sqlitePath: ':memory:', prefix: 'reelhouse' })
    assert.equal(store.indexName('acc1'), 'reelhouse-acc1')
    await store.close()
    await assert.rejects(createSearchStore({ sqlitePath: ':memory:', prefix: 'Flex*' }), /search index prefix/)
  })

  for (const [scheme, flavor, kind] of [
    ['opensearch', 'opensearch', 'opensearch'],
    ['elasticsearch', 'elasticsearch', 'elasticsearch'],
    ['http', 'elasticsearch', 'elasticsearch']
  ] as const) {
    it(`talks to ${flavor} through a ${scheme}: URL`, async () => {
      const engine = await startFakeSearchEngine(flavor)
      const store = await createSearchStore({ url: engine.url.replace(/^http/, scheme) })
      assert.equal(store.kind, kind)
      await store.upsert('acc1', [asset('a1', { name: 'Café' })])
      assert.deepEqual(await store.search('acc1', { clauses: [{ field: 'name', text: 'cafe' }] }), ['a1'])
      await store.close()
      await engine.close()
    })
  }

  it('picks OpenSearch for an http: URL with ?engine=opensearch', async () => {
    const engine = await startFakeSearchEngine('opensearch')
    const store = await createSearchStore({ url: `${engine.url}?engine=opensearch` })
    assert.equal(store.kind, 'opensearch')
    assert.equal(await store.ensureIndex('acc1'), true)
    await store.close()
    await engine.close()
  })
})
