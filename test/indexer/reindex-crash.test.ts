import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import type { Kysely } from 'kysely'
import { loadConfig } from '../../src/config/index.ts'
import { migrateToLatest, openDatabase, type Database } from '../../src/db/index.ts'
import type { DB } from '../../src/db/tables/index.ts'
import { readQueueMessages } from '../../src/indexer/index.ts'
import { openSearchStore, type SearchStore } from '../../src/search/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { startIndexerProcess, type IndexerProcess } from './support/child.ts'
import { insertAccount, insertAssets, insertLabel, outboxRows } from './support/seed.ts'

/** Twenty-five batches of 200: the kill at a quarter lands with most of the reindex still to do. */
const ASSETS = 5_000

async function waitFor<T> (read: () => Promise<T>, done: (value: T) => boolean, what: string, budgetMs = 180_000): Promise<T> {
  const deadline = Date.now() + budgetMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} (last: ${JSON.stringify(value)})`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** What the asset's document must hold, read straight from the tables. */
async function expectedDocument (db: Kysely<DB>, accountId: string, id: string): Promise<Record<string, unknown>> {
  const source = db as unknown as Kysely<any>
  const row = await source.selectFrom('assets').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirstOrThrow()
  const labels = await source.selectFrom('asset_labels').innerJoin('labels', 'labels.id', 'asset_labels.label_id').select('labels.full_name').where('asset_labels.asset_id', '=', id).execute()
  const metadata = await source.selectFrom('asset_metadata').select(['name', 'value']).where('asset_id', '=', id).execute()
  return {
    name: row.name,
    description: row.description,
    labels: labels.map((label: { full_name: string }) => label.full_name).sort(),
    metadata: Object.fromEntries(metadata.map((entry: { name: string, value: string }) => [entry.name, entry.value])),
    status: row.status,
    asset_type: row.asset_type,
    duration: Number(row.duration),
    created_at: row.created_at,
    updated_at: row.updated_at
  }
}

describe('a reindex interrupted by kill -9 of the indexer', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-crash-'))
  const env = { REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, TEST_LEASE_MS: '2000', TEST_BATCH_SIZE: '200' }
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' })
  let database: Database
  let store: SearchStore
  const processes: IndexerProcess[] = []
  after(async () => {
    for (const child of processes) await child.kill9()
    await store?.close()
    await database?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('indexes every asset once restarted: the count and a sample compared field by field', async (t) => {
    database = await openDatabase(config.databaseUrl)
    await migrateToLatest(database.db)
    const account = await insertAccount(database.db)
    const news = await insertLabel(database.db, account, 'News', undefined, false)
    const sports = await insertLabel(database.db, account, 'Sports', news, false)
    const ids = await insertAssets(database.db, account, ASSETS, [news.id, sports.id])
    store = await openSearchStore(config)

    const first = await startIndexerProcess(env)
    processes.push(first)
    const answer = await fetch(`${first.url}/api/reindex`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    assert.deepEqual([answer.status, await answer.json()], [202, { queued: ASSETS + 2 }])
    // Killed a quarter of the way in: some entries acknowledged, a batch in hand, the rest waiting.
    await waitFor(async () => await store.count(account, 'asset'), (count) => count >= ASSETS / 4, 'a quarter of the documents')
    await first.kill9()

    const left = (await outboxRows(database.db)).length
    assert.ok(left > 0 && left <= ASSETS + 2, `the reindex was interrupted with entries left (${left})`)
    t.diagnostic(`killed with ${left} of ${ASSETS + 2} entries pending, ${await store.count(account)} documents written`)

    const second = await startIndexerProcess(env)
    processes.push(second)
    await waitFor(async () => await readQueueMessages({ url: second.url }), (messages) => messages === 0, 'the queue to drain')
    assert.equal(await store.count(account, 'asset'), ASSETS)
    assert.equal(await store.count(account, 'label'), 2)
    for (let i = 0; i < ids.length; i += 97) {
      const doc = await store.get(account, 'asset', ids[i])
      assert.deepEqual(doc?.fields, await expectedDocument(database.db, account, ids[i]), `asset ${ids[i]}`)
    }
    await second.stop()
  })
})
