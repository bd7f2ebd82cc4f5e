// Searches run back to back while `reelhouse reindex` rebuilds an account's index, each answer
// compared with the complete one (docs/search-and-indexing.md, "Rebuilding without an outage").
// Used by test/indexer/reindex-query-loop.test.ts and bench/reindex-query-loop.ts.
import assert from 'node:assert/strict'
import SQLite from 'better-sqlite3'
import { documentLoaders } from '../../../src/app/resource-document-loaders.ts'
import { loadConfig } from '../../../src/config/index.ts'
import { migrateToLatest, openDatabase } from '../../../src/db/index.ts'
import { MAPPING_VERSION, openSearchStore, searchDatabasePath, type SearchStore } from '../../../src/search/index.ts'
import { startIndexerProcess } from './child.ts'
import { runCli } from './cli.ts'
import { insertAccount, insertAssets, updateAssetName } from './seed.ts'

export interface QueryLoopResult {
  assets: number
  searches: number
  /** Searches that began and ended while the rebuild table existed. */
  searchesDuringBuild: number
  reindexMs: number
}

const sorted = (ids: string[]): string[] => [...ids].sort()

/**
 * Seeds `count` assets (bulk inserts) and their live index (documents written straight to the store
 * by the real loaders, marked as written by the previous mapping), then runs `reelhouse reindex`
 * against an indexer process configured by `env` while this process searches without pause.
 * A write made during the build must be found after the swap.
 */
export async function reindexDuringQueryLoop (env: Record<string, string>, count: number): Promise<QueryLoopResult> {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' })
  const database = await openDatabase(config.databaseUrl)
  let store: SearchStore | undefined
  const raw = new SQLite(searchDatabasePath(config))
  try {
    await migrateToLatest(database.db)
    const account = await insertAccount(database.db)
    const ids = await insertAssets(database.db, account, count)
    store = await openSearchStore(config)
    const batch = documentLoaders().batch('asset')
    assert.ok(batch !== undefined)
    for (let start = 0; start < ids.length; start += 1000) {
      const docs = await batch(database.db, account, ids.slice(start, start + 1000))
      await store.upsert(account, [...docs.values()])
    }
    const live = store.indexName(account)
    raw.prepare('UPDATE search_index_versions SET mapping_version = ? WHERE name = ?').run(MAPPING_VERSION - 1, live)
    const build = `${live}~rebuild`

    // `insertAssets` names asset i `Clip i <word>`, the word cycling through eight; garden is the eighth.
    const queries = [
      { text: 'clip', expected: sorted(ids) },
      { text: 'garden', expected: sorted(ids.filter((_, i) => i % 8 === 7)) }
    ]
    for (const query of queries) assert.deepEqual(sorted(await store.search(account, { clauses: [{ field: 'name', text: query.text }] })), query.expected, `before: ${query.text}`)

    const buildExists = (): boolean => raw.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(build) !== undefined
    const indexer = await startIndexerProcess(env)
    let renamed: string | undefined
    let done = false
    let searches = 0
    let searchesDuringBuild = 0
    const started = Date.now()
    try {
      const cli = runCli(['reindex', '--account', account], { ...env, INDEXER_PORT: new URL(indexer.url).port })
      void cli.finally(() => { done = true })
      while (!done) {
        // The embedded store answers synchronously: yield so the child processes' events are seen.
        await new Promise((resolve) => setImmediate(resolve))
        for (const query of queries) {
          const during = buildExists()
          const answer = sorted(await store.search(account, { clauses: [{ field: 'name', text: query.text }] }))
          // Compared as a count first: a failure should not print 20,000 ids.
          assert.equal(answer.length, query.expected.length, `search ${searches} (${query.text}) answered ${answer.length} of ${query.expected.length}`)
          assert.deepEqual(answer, query.expected, `search ${searches} (${query.text})`)
          searches += 1
          if (during && buildExists()) searchesDuringBuild += 1
        }
        // Once the build holds some documents, one of them is renamed: only a write that reaches both
        // indices can bring the new word into the index swapped in.
        if (renamed === undefined && buildExists()) {
          const id = raw.prepare(`SELECT id FROM "${build}" WHERE type = 'asset' LIMIT 1`).pluck().get() as string | undefined
          if (id !== undefined) {
            const i = ids.indexOf(id)
            await updateAssetName(database.db, account, id, `Clip ${i} zeppelin ${['harbour', 'sunrise', 'football', 'cooking', 'interview', 'concert', 'mountain', 'garden'][i % 8]}`)
            renamed = id
          }
        }
      }
      const result = await cli
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, new RegExp(`^rebuilt and swapped in 1 index; queued ${count} entries; all indexed \\(0 pending\\)\\n$`))
    } finally {
      await indexer.stop()
    }
    const reindexMs = Date.now() - started

    for (const query of queries) assert.deepEqual(sorted(await store.search(account, { clauses: [{ field: 'name', text: query.text }] })), query.expected, `after: ${query.text}`)
    assert.equal(buildExists(), false, 'the build was swapped in')
    assert.equal(await store.storedMappingVersion(account), MAPPING_VERSION, 'the live index is the rebuilt one')
    assert.ok(renamed !== undefined, 'a write was made during the build')
    assert.deepEqual(await store.search(account, { clauses: [{ field: 'name', text: 'zeppelin' }] }), [renamed], 'the write made during the build is in the index swapped in')
    return { assets: count, searches, searchesDuringBuild, reindexMs }
  } finally {
    raw.close()
    await store?.close()
    await database.close()
  }
}
