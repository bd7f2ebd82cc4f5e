import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { documentLoaders as appLoaders } from '../../src/app/resource-document-loaders.ts'
import { createEmbeddedConsumer, DocumentLoaders, IndexMetrics, type IndexConsumer } from '../../src/indexer/index.ts'

const documentLoaders = appLoaders()
import { ManualClock } from '../../src/lib/clock.ts'
import { createOutboxQueue } from '../../src/outbox/index.ts'
import { createFts5Store, type SearchStore } from '../../src/search/index.ts'
import { databaseBackends, openTestDatabase, type TestDatabase } from '../support/backends.ts'
import { deleteAsset, insertAccount, insertAsset, insertLabel, outboxRows } from './support/seed.ts'

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0)
const HOUR = 3_600_000

for (const backend of databaseBackends()) {
  describe(`the embedded index consumer (${backend.name})`, { skip: backend.skip }, () => {
    let database: TestDatabase
    let store: SearchStore
    let metrics: IndexMetrics
    let clock: ManualClock
    let account: string
    const consumer = (loaders: DocumentLoaders = documentLoaders, maxAttempts = 3): IndexConsumer =>
      createEmbeddedConsumer(database, store, metrics, { clock, loaders, maxAttempts, retryBackoff: { baseMs: 1000, maxMs: 1000 }, outageBackoff: { baseMs: 1, maxMs: 1 } })

    beforeEach(async () => {
      database = await openTestDatabase(backend.name)
      store = createFts5Store({ path: ':memory:' })
      metrics = new IndexMetrics()
      clock = new ManualClock(NOW)
      account = await insertAccount(database.db)
    })
    afterEach(async () => {
      await store.close()
      await database.close()
    })

    it('indexes an asset with its labels\' full names and metadata, then empties the queue', async () => {
      const news = await insertLabel(database.db, account, 'News')
      const sports = await insertLabel(database.db, account, 'Sports', news)
      const id = await insertAsset(database.db, account, { name: 'Café au lait', description: 'Morning in Paris', duration: 61_000, metadata: { season: '2', b: 'x' }, labelIds: [sports.id, news.id] })
      assert.equal(await consumer().drain(), 3)
      const doc = await store.get(account, 'asset', id)
      assert.deepEqual(doc?.fields, {
        name: 'Café au lait',
        description: 'Morning in Paris',
        labels: ['/News', '/News/Sports'],
        metadata: { b: 'x', season: '2' },
        status: 'live',
        asset_type: 'video',
        duration: 61_000,
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:00:00.000Z'
      })
      assert.deepEqual((await store.get(account, 'label', sports.id))?.fields, { name: 'Sports', full_name: '/News/Sports', parent_id: news.id, created_at: '2026-11-22T10:00:00.000Z', updated_at: '2026-11-22T10:00:00.000Z' })
      assert.deepEqual(await store.search(account, { clauses: [{ field: 'labels', text: 'sports' }] }), [id])
      assert.deepEqual(await outboxRows(database.db), [])
      assert.equal(metrics.documentsIndexed.asset, 1)
      assert.equal(metrics.documentsIndexed.label, 2)
    })

    it('deletes the document of a resource that no longer exists', async () => {
      const id = await insertAsset(database.db, account, { name: 'Gone soon' })
      await consumer().drain()
      await deleteAsset(database.db, account, id)
      await consumer().drain()
      assert.equal(await store.get(account, 'asset', id), null)
      assert.equal(metrics.documentsRemoved.asset, 1)
      assert.equal(metrics.indexWrites, 2)
    })

    it('retries a failing entry with backoff and parks it with the reason when its attempts run out', async () => {
      const good = await insertAsset(database.db, account, { name: 'Fine' })
      const bad = await insertAsset(database.db, account, { name: 'Poison' })
      const loaders = documentLoaders.with({
        asset: async (db, accountId, id) => {
          if (id === bad) throw new Error('metadata is not valid JSON')
          return await documentLoaders.load(db, accountId, 'asset', id)
        }
      })
      const worker = consumer(loaders, 3)
      await worker.drain()
      assert.ok(await store.get(account, 'asset', good))
      assert.deepEqual((await outboxRows(database.db)).map((row) => [row.id, Number(row.attempts)]), [[bad, 1]])
      assert.equal(await worker.runOnce(), 0, 'held back by its backoff')
      clock.advance(1000)
      await worker.drain()
      clock.advance(1000)
      await worker.drain()
      assert.deepEqual(await outboxRows(database.db), [])
      const parked = await createOutboxQueue(database).parked(account)
      assert.deepEqual(parked.map((row) => [row.id, row.reason, Number(row.attempts)]), [[bad, `loading asset ${bad}: metadata is not valid JSON`, 3]])
      assert.equal(metrics.failures.asset, 3)
      assert.equal(metrics.parked, 1)
    })

    it('counts no attempt when every entry fails alike (the search store is away)', async () => {
      await insertAsset(database.db, account)
      await insertAsset(database.db, account)
      const broken = { ...store, upsert: async () => { throw new Error('connect ECONNREFUSED') } } satisfies SearchStore
      const worker = createEmbeddedConsumer(database, broken, metrics, { clock, loaders: documentLoaders, maxAttempts: 1, outageBackoff: { baseMs: 1, maxMs: 1 } })
      for (let i = 0; i < 5; i++) {
        clock.advance(HOUR)
        await worker.runOnce()
      }
      const rows = await outboxRows(database.db)
      assert.deepEqual(rows.map((row) => Number(row.attempts)), [0, 0])
      assert.equal((await createOutboxQueue(database).parked()).length, 0)
    })
  })
}
