import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { loadConfig } from '../../src/config/index.ts'
import { migrateToLatest, openDatabase, type Database } from '../../src/db/index.ts'
import { indexBody } from '../../src/search/engine-requests.ts'
import { createElasticsearchStore } from '../../src/search/elasticsearch-store.ts'
import type { SearchStore } from '../../src/search/index.ts'
import { createOpenSearchStore } from '../../src/search/opensearch-store.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { startIndexerProcess } from '../indexer/support/child.ts'
import { runCli } from '../indexer/support/cli.ts'
import { insertAccount, insertAssets } from '../indexer/support/seed.ts'
import { startFakeSearchEngine, type FakeSearchEngine, type Flavor } from './fake-search-engine.ts'
import { asset } from './search-store-contract.ts'

// Aliases and the swap against the search-engine stand-in (no engine installs here): each account's
// concrete index `flex-account-<id>-v<N>` behind the alias `flex-account-<id>`
// (docs/search-and-indexing.md, "Rebuilding without an outage").
const aliasesOf = (engine: FakeSearchEngine): Record<string, string[]> =>
  Object.fromEntries([...engine.indices].map(([name, index]) => [name, [...index.aliases]]))

async function send (engine: FakeSearchEngine, method: string, path: string, body?: unknown): Promise<{ status: number, body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const answer = await fetch(`${engine.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: answer.status, body: await answer.json() }
}

const cafe = { clauses: [{ field: 'name' as const, text: 'cafe' }] }

for (const [flavor, create] of [['elasticsearch', createElasticsearchStore], ['opensearch', createOpenSearchStore]] as const) {
  describe(`aliases on the ${flavor} stand-in`, () => {
    let engine: FakeSearchEngine
    let store: SearchStore
    beforeEach(async () => {
      engine = await startFakeSearchEngine(flavor as Flavor)
      store = create({ node: engine.url, prefix: 'flex-account' })
    })
    afterEach(async () => {
      await store.close()
      await engine.close()
    })

    it('creates an account\'s first index as version 1 behind the alias, in one request', async () => {
      await store.upsert('acc1', [asset('a1', { name: 'Café' })])
      assert.deepEqual(aliasesOf(engine), { 'flex-account-acc1-v1': ['flex-account-acc1'] })
      assert.equal(engine.exchanges.filter(({ request }) => request.method === 'PUT').length, 1)
      assert.deepEqual(await store.search('acc1', cafe), ['a1'])
      assert.deepEqual(await store.indexedAccounts(), ['acc1'])
    })

    it('swaps the build in with one _aliases request: the alias moves, the old index goes', async () => {
      await store.upsert('acc1', [asset('a1', { name: 'Café' })])
      assert.equal(await store.beginRebuild('acc1'), 'flex-account-acc1-v2')
      assert.deepEqual(aliasesOf(engine), { 'flex-account-acc1-v1': ['flex-account-acc1'], 'flex-account-acc1-v2': [] })
      await store.upsert('acc1', [asset('a1', { name: 'Café' })])
      assert.equal(engine.indices.get('flex-account-acc1-v2')?.docs.size, 1, 'the write reached the build')
      engine.exchanges.length = 0
      assert.equal(await store.finishRebuild('acc1'), true)
      assert.deepEqual(engine.exchanges.map(({ request }) => [request.method, request.path.split('?')[0]]), [
        ['GET', '/flex-account-acc1%2Cflex-account-acc1-v*/_alias'],
        ['POST', '/_aliases']
      ])
      assert.deepEqual(aliasesOf(engine), { 'flex-account-acc1-v2': ['flex-account-acc1'] })
      assert.deepEqual(await store.search('acc1', cafe), ['a1'])
    })

    it('refuses DELETE on the alias, as the engines do; the manual procedure deletes the concrete index', async () => {
      await store.upsert('acc1', [asset('a1', { name: 'Café' })])
      const refused = await send(engine, 'DELETE', '/flex-account-acc1')
      assert.equal(refused.status, 400)
      assert.equal(refused.body.error.type, 'illegal_argument_exception')
      assert.equal(refused.body.error.reason, 'The provided expression [flex-account-acc1] matches an alias, specify the corresponding concrete indices instead.')
      assert.deepEqual(await store.search('acc1', cafe), ['a1'], 'nothing was deleted')
      // The interface spec's partial re-index with <indexName> read as the concrete index.
      assert.equal((await send(engine, 'DELETE', '/flex-account-acc1-v1')).status, 200)
      assert.deepEqual(aliasesOf(engine), {}, 'the alias went with its index')
      assert.deepEqual(await store.search('acc1', cafe), [])
      await store.upsert('acc1', [asset('a1', { name: 'Café' })])
      assert.deepEqual(aliasesOf(engine), { 'flex-account-acc1-v1': ['flex-account-acc1'] }, 'the next write recreates index and alias')
      assert.deepEqual(await store.search('acc1', cafe), ['a1'])
    })

    it('refuses an alias named like an index, and an index named like an alias', async () => {
      await store.ensureIndex('acc1')
      const index = await send(engine, 'PUT', '/flex-account-acc1', {})
      assert.deepEqual([index.status, index.body.error.type], [400, 'invalid_index_name_exception'])
      const alias = await send(engine, 'POST', '/_aliases', { actions: [{ add: { index: 'flex-account-acc1-v1', alias: 'flex-account-acc1-v1' } }] })
      assert.deepEqual([alias.status, alias.body.error.type], [400, 'invalid_alias_name_exception'])
      const removeAlias = await send(engine, 'POST', '/_aliases', { actions: [{ remove_index: { index: 'flex-account-acc1' } }] })
      assert.deepEqual([removeAlias.status, removeAlias.body.error.type], [400, 'illegal_argument_exception'])
      assert.deepEqual(aliasesOf(engine), { 'flex-account-acc1-v1': ['flex-account-acc1'] }, 'refused requests change nothing')
    })

    it('migrates an index from before aliases (a concrete flex-account-<id>) without a moment without it', async () => {
      // As an older release made it: the concrete index bears the name the alias will take.
      assert.equal((await send(engine, 'PUT', '/flex-account-acc1', indexBody())).status, 200)
      await store.upsert('acc1', [asset('a1', { name: 'Café' })])
      assert.deepEqual(aliasesOf(engine), { 'flex-account-acc1': [] }, 'writes go to the old index as they did')
      assert.deepEqual(await store.indexedAccounts(), ['acc1'])
      assert.equal(await store.beginRebuild('acc1'), 'flex-account-acc1-v1')
      await store.upsert('acc1', [asset('a1', { name: 'Café' })])
      assert.deepEqual(await store.search('acc1', cafe), ['a1'])
      engine.exchanges.length = 0
      assert.equal(await store.finishRebuild('acc1'), true)
      const swap = engine.exchanges.find(({ request }) => request.path === '/_aliases')
      assert.deepEqual(swap?.request.body, { actions: [{ add: { index: 'flex-account-acc1-v1', alias: 'flex-account-acc1' } }, { remove_index: { index: 'flex-account-acc1' } }] })
      assert.deepEqual(aliasesOf(engine), { 'flex-account-acc1-v1': ['flex-account-acc1'] })
      assert.deepEqual(await store.search('acc1', cafe), ['a1'])
    })
  })
}

describe('reelhouse reindex against the stand-in', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-reindex-aliases-'))
  let engine: FakeSearchEngine
  let database: Database
  let store: SearchStore
  let env: Record<string, string>
  let account: string
  before(async () => {
    engine = await startFakeSearchEngine('opensearch')
    env = { REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, SEARCH_URL: `${engine.url}?engine=opensearch` }
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' })
    database = await openDatabase(config.databaseUrl)
    await migrateToLatest(database.db)
    account = await insertAccount(database.db)
    await insertAssets(database.db, account, 40)
    store = createOpenSearchStore({ node: engine.url, prefix: 'flex-account' })
  })
  after(async () => {
    await store.close()
    await database.close()
    await engine.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('rebuilds behind the alias, and recreates a missing alias', async () => {
    const indexer = await startIndexerProcess(env)
    try {
      const cliEnv = { ...env, INDEXER_PORT: new URL(indexer.url).port }
      const first = await runCli(['reindex'], cliEnv)
      assert.equal(first.code, 0, first.stderr)
      assert.equal(await store.count(account, 'asset'), 40)
      const alias = `flex-account-${account}`
      assert.deepEqual(aliasesOf(engine), { [`${alias}-v1`]: [alias] })

      // Someone removed the alias: searches find nothing until the reindex puts one back.
      assert.equal((await send(engine, 'POST', '/_aliases', { actions: [{ remove: { index: `${alias}-v1`, alias } }] })).status, 200)
      assert.equal(await store.count(account, 'asset'), 0)
      const again = await runCli(['reindex', '--account', account], cliEnv)
      assert.equal(again.code, 0, again.stderr)
      assert.match(again.stdout, /^rebuilt and swapped in 1 index; queued 40 entries; all indexed \(0 pending\)\n$/)
      assert.deepEqual(Object.values(aliasesOf(engine)), [[alias]], 'one index, behind the alias again')
      assert.equal(await store.count(account, 'asset'), 40)
    } finally {
      await indexer.stop()
    }
  })
})
