import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../src/db/tables/index.ts'
import { createOutboxQueue, recordChange, recordLabelTree, type OutboxQueue } from '../../src/outbox/index.ts'
import { databaseBackends, openTestDatabase, type TestDatabase } from '../support/backends.ts'
import { insertAccount, insertAsset, insertLabel, outboxRows, updateAssetName } from '../indexer/support/seed.ts'

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0)

for (const backend of databaseBackends()) {
  describe(`the outbox (${backend.name})`, { skip: backend.skip }, () => {
    let database: TestDatabase
    let db: Kysely<DB>
    let queue: OutboxQueue
    let account: string
    beforeEach(async () => {
      database = await openTestDatabase(backend.name)
      db = database.db
      queue = createOutboxQueue(database)
      account = await insertAccount(db)
    })
    afterEach(async () => { await database.close() })

    it('coalesces 100 changes to one resource into one entry', async () => {
      const id = await insertAsset(db, account, { name: 'first' })
      for (let i = 0; i < 100; i++) await updateAssetName(db, account, id, `name ${i}`)
      const rows = await outboxRows(db)
      assert.equal(rows.length, 1)
      assert.deepEqual({ ...rows[0], change_id: undefined }, { account_id: account, type: 'asset', id, change_id: undefined, published: 0, attempts: 0 })
    })

    it('records nothing when the writer rolls its transaction back', async () => {
      await assert.rejects(db.transaction().execute(async (trx) => {
        await recordChange(trx, account, 'player', 'p1')
        throw new Error('the write failed')
      }), /the write failed/)
      assert.deepEqual(await outboxRows(db), [])
    })

    it('deletes an acknowledged entry, but keeps one that changed while it was being indexed', async () => {
      const a = await insertAsset(db, account)
      const b = await insertAsset(db, account)
      const claimed = await queue.claim('batch-1', NOW, 60_000, 10)
      assert.equal(claimed.length, 2)
      await updateAssetName(db, account, b, 'changed meanwhile')
      await queue.ack('batch-1', claimed)
      const rows = await outboxRows(db)
      assert.deepEqual(rows.map((row) => row.id), [b])
      const again = await queue.claim('batch-2', NOW, 60_000, 10)
      assert.deepEqual(again.map((entry) => entry.id), [b], 'released at once, not left to its lease')
      assert.notEqual(a, b)
    })

    it('leaves claimed entries to their consumer until the lease runs out', async () => {
      await insertAsset(db, account)
      assert.equal((await queue.claim('dies', NOW, 30_000, 10)).length, 1)
      assert.equal((await queue.claim('other', NOW + 29_999, 30_000, 10)).length, 0)
      assert.equal((await queue.claim('other', NOW + 30_000, 30_000, 10)).length, 1)
    })

    it('holds a failed entry back until its backoff has passed, counting the attempt', async () => {
      await insertAsset(db, account)
      const [entry] = await queue.claim('b1', NOW, 30_000, 10)
      await queue.retry('b1', [{ entry, error: 'boom', counts: true, availableAt: NOW + 5000 }])
      await queue.ack('b1', [])
      assert.equal((await queue.claim('b2', NOW + 4999, 30_000, 10)).length, 0)
      const [retried] = await queue.claim('b3', NOW + 5000, 30_000, 10)
      assert.equal(retried.attempts, 1)
      assert.deepEqual(await queue.counts(NOW + 5000), { entries: 1, leased: 1, published: 0, delayed: 0, parked: 0, oldestEnqueuedAt: retried.enqueuedAt })
    })

    it('parks an entry with its reason and removes it from the queue', async () => {
      await insertAsset(db, account)
      const [entry] = await queue.claim('b1', NOW, 30_000, 10)
      await queue.park([{ entry, reason: 'loading asset: bad row' }], NOW)
      assert.deepEqual(await outboxRows(db), [])
      const parked = await queue.parked(account)
      assert.equal(parked.length, 1)
      assert.equal(parked[0].reason, 'loading asset: bad row')
      assert.equal(Number(parked[0].attempts), 1)
      await queue.unpark([entry])
      assert.equal((await queue.parked()).length, 0)
    })

    it('records a label, the labels under it and every asset carrying one of them', async () => {
      const news = await insertLabel(db, account, 'News', undefined, false)
      const sports = await insertLabel(db, account, 'Sports', news, false)
      const other = await insertLabel(db, account, 'Newsletter', undefined, false)
      const a1 = await insertAsset(db, account, { labelIds: [news.id, sports.id] }, false)
      const a2 = await insertAsset(db, account, { labelIds: [sports.id] }, false)
      await insertAsset(db, account, { labelIds: [other.id] }, false)
      await db.transaction().execute(async (trx) => { await recordLabelTree(trx, account, news) })
      const rows = await outboxRows(db)
      assert.deepEqual(rows.map((row) => `${row.type}:${row.id}`).sort(), [`asset:${a1}`, `asset:${a2}`, `label:${news.id}`, `label:${sports.id}`].sort())
    })

    it('marks entries published only if they did not change since they were read', async () => {
      const a = await insertAsset(db, account)
      const b = await insertAsset(db, account)
      const entries = await queue.unpublished(NOW, 10)
      await updateAssetName(db, account, b, 'changed before the confirm')
      await queue.markPublished(entries, NOW)
      assert.deepEqual((await queue.unpublished(NOW, 10)).map((entry) => entry.id), [b])
      await updateAssetName(db, account, a, 'changed after publication')
      assert.deepEqual((await queue.unpublished(NOW, 10)).map((entry) => entry.id), [b], 'a published entry is not published again for a new change')
      assert.deepEqual((await queue.stalePublished(NOW, 10)).map((entry) => entry.id), [a], 'unless its message looks lost')
    })

    it('leases the entries a message names, once, and publishes again one that changed while indexed', async () => {
      const a = await insertAsset(db, account)
      const b = await insertAsset(db, account)
      await queue.markPublished(await queue.unpublished(NOW, 10), NOW)
      const keys = [{ accountId: account, type: 'asset' as const, id: a }, { accountId: account, type: 'asset' as const, id: b }]
      const taken = await queue.claimKeys('c1', keys, NOW, 60_000)
      assert.deepEqual(taken.map((entry) => entry.id).sort(), [a, b].sort())
      assert.deepEqual(await queue.claimKeys('c2', keys, NOW, 60_000), [], 'a duplicate message finds them held')
      assert.deepEqual(await queue.unpublished(NOW, 10), [], 'nor does the relay publish them while held')
      await updateAssetName(db, account, b, 'changed while indexed')
      await queue.ack('c1', taken)
      assert.deepEqual((await outboxRows(db)).map((row) => [row.id, Number(row.published)]), [[b, 0]])
      assert.deepEqual((await queue.unpublished(NOW, 10)).map((entry) => entry.id), [b])
      assert.deepEqual(await queue.claimKeys('c3', [{ accountId: account, type: 'asset', id: a }], NOW, 60_000), [], 'an indexed entry is gone')
    })

    it('publishes again an entry whose consumer died, once its lease ran out', async () => {
      const a = await insertAsset(db, account)
      await queue.markPublished(await queue.unpublished(NOW, 10), NOW)
      await queue.claimKeys('dies', [{ accountId: account, type: 'asset', id: a }], NOW, 60_000)
      assert.deepEqual(await queue.unpublished(NOW + 59_999, 10), [])
      const again = await queue.unpublished(NOW + 60_000, 10)
      assert.deepEqual(again.map((entry) => entry.id), [a])
      await queue.markPublished(again, NOW + 60_000)
      assert.deepEqual(await queue.unpublished(NOW + 60_000, 10), [], 'the new message is marked, so it is not published in a loop')
    })

    it('does not mark an entry published when its consumer took it before the confirm arrived', async () => {
      const a = await insertAsset(db, account)
      const entries = await queue.unpublished(NOW, 10)
      // The broker delivered the message, and the consumer took the entry, before the relay saw the confirm.
      await queue.claimKeys('dies', [{ accountId: account, type: 'asset', id: a }], NOW, 60_000)
      await queue.markPublished(entries, NOW)
      assert.deepEqual(await queue.stalePublished(NOW + 60_000, 10), [])
      assert.deepEqual((await queue.unpublished(NOW + 60_000, 10)).map((entry) => entry.id), [a], 'the relay publishes it again once the lease ran out')
    })

    // Row locks are PostgreSQL's: SQLite has one writer at a time.
    // eslint-disable-next-line curly -- a test only PostgreSQL's row locks can run.
    if (backend.name === 'postgres') it('acknowledges an entry that was row-locked when the consumer settled it, once the lock is gone', async () => {
      const a = await insertAsset(db, account)
      const b = await insertAsset(db, account)
      const taken = await queue.claim('c1', NOW, 60_000, 10)
      let acked: Promise<void> | undefined
      await db.transaction().execute(async (trx) => {
        // Another statement (a writer, the relay marking it) holds a's row for a moment.
        await sql`SELECT id FROM outbox WHERE id = ${a} FOR UPDATE`.execute(trx)
        acked = queue.ack('c1', taken)
        const gone = async (): Promise<boolean> => (await sql`SELECT 1 FROM outbox WHERE id = ${b}`.execute(trx)).rows.length === 0
        for (let i = 0; i < 200 && !(await gone()); i++) await new Promise((resolve) => setTimeout(resolve, 10))
        assert.ok(await gone(), 'the unlocked entry is acknowledged at once')
        assert.equal((await sql`SELECT 1 FROM outbox WHERE id = ${a}`.execute(trx)).rows.length, 1, 'the locked one is not, yet')
      })
      await acked
      assert.deepEqual(await outboxRows(db), [], 'not left to its lease')
    })
  })
}
