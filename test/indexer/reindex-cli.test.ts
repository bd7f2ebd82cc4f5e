import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../src/config/index.ts'
import { migrateToLatest, openDatabase, type Database } from '../../src/db/index.ts'
import { MAPPING_VERSION, openSearchStore, type SearchStore } from '../../src/search/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { startIndexerProcess, type IndexerProcess } from './support/child.ts'
import { runCli } from './support/cli.ts'
import { insertAccount, insertAssets } from './support/seed.ts'

const ghost = (id: string) => ({ type: 'asset' as const, id, fields: { name: 'left over from another release' } })

describe('reelhouse reindex, embedded', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-reindex-cli-'))
  const env = { REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY }
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' })
  let database: Database
  let store: SearchStore
  let indexer: IndexerProcess
  let cliEnv: Record<string, string>
  const accounts: Record<string, string> = {}
  const assets: Record<string, string[]> = {}

  before(async () => {
    database = await openDatabase(config.databaseUrl)
    await migrateToLatest(database.db)
    for (const [key, count] of [['a', 300], ['b', 200]] as const) {
      accounts[key] = await insertAccount(database.db)
      assets[key] = await insertAssets(database.db, accounts[key], count)
    }
    store = await openSearchStore(config)
    indexer = await startIndexerProcess(env)
    cliEnv = { ...env, INDEXER_PORT: new URL(indexer.url).port }
  })
  after(async () => {
    await indexer?.stop()
    await store?.close()
    await database?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('deletes every index, queues every resource and follows the pending count to zero', async () => {
    await store.upsert(accounts.a, [ghost('gone-a')])
    const result = await runCli(['reindex'], cliEnv)
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^rebuilt and swapped in 1 index; queued 500 entries; all indexed \(0 pending\)\n$/)
    assert.equal(await store.count(accounts.a, 'asset'), 300)
    assert.equal(await store.count(accounts.b, 'asset'), 200)
    assert.equal(await store.get(accounts.a, 'asset', 'gone-a'), null, 'the old index went with its leftovers')
    assert.deepEqual((await store.listIndices()).map((index) => index.mappingVersion), [MAPPING_VERSION, MAPPING_VERSION])
  })

  it('rebuilds one account with --account and leaves the others alone', async () => {
    await store.upsert(accounts.a, [ghost('gone-a')])
    await store.upsert(accounts.b, [ghost('gone-b')])
    const result = await runCli(['reindex', '--account', accounts.b], cliEnv)
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^rebuilt and swapped in 1 index; queued 200 entries; all indexed \(0 pending\)\n$/)
    assert.equal(await store.get(accounts.b, 'asset', 'gone-b'), null)
    assert.ok(await store.get(accounts.a, 'asset', 'gone-a'), 'another account\'s index is untouched')
    assert.equal(await store.count(accounts.b, 'asset'), 200)
    assert.deepEqual((await store.get(accounts.b, 'asset', assets.b[7]))?.fields.name, 'Clip 7 garden')
  })

  it('refuses an unknown account before deleting anything', async () => {
    const before = await store.count(accounts.a)
    const result = await runCli(['reindex', '--account', 'no-such-account'], cliEnv)
    assert.equal(result.code, 1)
    assert.equal(result.stderr, 'reelhouse: account no-such-account does not exist\n')
    assert.equal(await store.count(accounts.a), before)
  })
})
