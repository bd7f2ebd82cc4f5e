import assert from 'node:assert/strict'
import { documentLoaders } from '../../src/app/resource-document-loaders.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { Connection } from 'rabbitmq-client'
import { loadConfig } from '../../src/config/index.ts'
import { migrateToLatest, openDatabase, type Database } from '../../src/db/index.ts'
import { readQueueMessages, startWorker, type IndexWorker } from '../../src/indexer/index.ts'
import { createOutboxQueue, INDEX_QUEUE } from '../../src/outbox/index.ts'
import { createFts5Store, openSearchStore, type SearchStore } from '../../src/search/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { openTestDatabase, type TestDatabase } from '../support/backends.ts'
import { startIndexerProcess } from './support/child.ts'
import { runCli } from './support/cli.ts'
import { insertAccount, insertAsset, insertAssets, outboxRows, updateAssetName } from './support/seed.ts'
import { startTcpProxy } from '../support/tcp-proxy.ts'

// The scale-out queue on a real RabbitMQ. One file, run in order: the queue's name is fixed by the
// interface spec, so every test starts by purging it and no two run at once.
const AMQP_URL = process.env.TEST_AMQP_URL
const MANAGEMENT_URL = process.env.TEST_RABBITMQ_MANAGEMENT_URL
const skip = AMQP_URL === undefined || MANAGEMENT_URL === undefined ? 'TEST_AMQP_URL and TEST_RABBITMQ_MANAGEMENT_URL are not set' : false
const backend = process.env.TEST_DATABASE_URL === undefined ? 'sqlite' : 'postgres'

async function waitFor<T> (read: () => Promise<T>, done: (value: T) => boolean, what: string, budgetMs = 60_000): Promise<T> {
  const deadline = Date.now() + budgetMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} (last: ${JSON.stringify(value)})`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The management API's `messages`; undefined while RabbitMQ has no statistics for the queue yet. */
async function managementMessages (): Promise<number | undefined> {
  return await readQueueMessages({ url: MANAGEMENT_URL as string }).catch(() => undefined)
}

describe(`the index queue on RabbitMQ (${backend})`, { skip, concurrency: 1 }, () => {
  let broker: Connection
  /** The broker's own count (AMQP passive declare): exact and immediate, unlike the management API's. */
  const exactCount = async (): Promise<number> => (await broker.queueDeclare({ queue: INDEX_QUEUE, passive: true })).messageCount
  before(async () => {
    broker = new Connection(AMQP_URL as string)
    await broker.queueDeclare({ queue: INDEX_QUEUE, durable: true })
  })
  after(async () => { await broker.close() })

  describe('relay and consumer', () => {
    let database: TestDatabase
    let store: SearchStore
    let account: string
    let worker: IndexWorker | undefined
    beforeEach(async () => {
      await broker.queuePurge(INDEX_QUEUE)
      database = await openTestDatabase(backend)
      store = createFts5Store({ path: ':memory:' })
      account = await insertAccount(database.db)
    })
    afterEach(async () => {
      await worker?.stop()
      worker = undefined
      await store.close()
      await database.close()
    })
    const unpublished = async (): Promise<number> => (await outboxRows(database.db)).filter((row) => Number(row.published) === 0).length

    it('publishes 1,000 changes to 250 assets as 250 messages, which the management API reports; started, the consumer drains them', async () => {
      const ids: string[] = []
      for (let i = 0; i < 250; i++) ids.push(await insertAsset(database.db, account, { name: `v0 ${i}` }))
      for (let round = 1; round <= 3; round++) for (const [i, id] of ids.entries()) await updateAssetName(database.db, account, id, `v${round} ${i}`)

      worker = await startWorker({ config: { amqpUrl: AMQP_URL }, database, store, loaders: documentLoaders() }, { consume: false, relay: { idleMs: 20 } })
      await waitFor(unpublished, (n) => n === 0, 'the relay to publish everything')
      assert.equal(await exactCount(), 250, 'one message per asset, not per change')
      await waitFor(managementMessages, (n) => n === 250, 'the management API to count 250 pending')

      // More changes while their messages wait: nothing more is published (publisher-side dedup).
      for (let round = 4; round <= 7; round++) for (const [i, id] of ids.entries()) await updateAssetName(database.db, account, id, `v${round} ${i}`)
      await worker.relay?.publishOnce()
      assert.equal(worker.relay?.stats.published, 250)
      assert.equal(await exactCount(), 250)

      worker.startConsuming()
      await waitFor(async () => (await outboxRows(database.db)).length, (n) => n === 0, 'the outbox to empty')
      await waitFor(managementMessages, (n) => n === 0, 'the management API to count 0 pending')
      assert.equal(await store.count(account, 'asset'), 250)
      for (const [i, id] of ids.entries()) assert.equal((await store.get(account, 'asset', id))?.fields.name, `v7 ${i}`)
      assert.equal(worker.metrics.documentsIndexed.asset, 250)
    })

    it('keeps every write while RabbitMQ is unreachable and loses nothing once it is back', async () => {
      const url = new URL(AMQP_URL as string)
      if (url.port === '') url.port = '5672'
      const proxy = await startTcpProxy(url.toString())
      try {
        worker = await startWorker({ config: { amqpUrl: proxy.through(url.toString()) }, database, store, loaders: documentLoaders() }, { relay: { idleMs: 20, backoff: { baseMs: 100, maxMs: 1000 } } })
        const first: string[] = []
        for (let i = 0; i < 100; i++) first.push(await insertAsset(database.db, account, { name: `before ${i}` }))
        await waitFor(async () => await store.count(account, 'asset'), (n) => n === 100, 'the first 100 documents')

        proxy.cut()
        const during: string[] = []
        for (let i = 0; i < 200; i++) during.push(await insertAsset(database.db, account, { name: `during ${i}` }))
        for (const [i, id] of first.entries()) await updateAssetName(database.db, account, id, `renamed ${i}`)
        assert.equal(await unpublished(), 300, 'every change of the outage is kept in the outbox')

        proxy.restore()
        // The queue's own counts, so that a failure says what the entries left are waiting for.
        const queue = createOutboxQueue(database)
        await waitFor(async () => await queue.counts(Date.now()), (counts) => counts.entries === 0, 'the outbox to empty after the outage')
        assert.equal(await store.count(account, 'asset'), 300)
        for (const [i, id] of during.entries()) assert.equal((await store.get(account, 'asset', id))?.fields.name, `during ${i}`)
        for (const [i, id] of first.entries()) assert.equal((await store.get(account, 'asset', id))?.fields.name, `renamed ${i}`)
      } finally {
        await worker?.stop()
        worker = undefined
        await proxy.close()
      }
    })
  })

  describe('reelhouse reindex', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-reindex-amqp-'))
    const env = { REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, AMQP_URL: AMQP_URL ?? '', RABBITMQ_MANAGEMENT_URL: MANAGEMENT_URL ?? '' }
    let database: Database
    let store: SearchStore
    const accounts: string[] = []
    before(async () => {
      await broker.queuePurge(INDEX_QUEUE)
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent' })
      database = await openDatabase(config.databaseUrl)
      await migrateToLatest(database.db)
      for (const count of [150, 100]) {
        const account = await insertAccount(database.db)
        await insertAssets(database.db, account, count)
        accounts.push(account)
      }
      store = await openSearchStore(config)
    })
    after(async () => {
      await store.close()
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    })

    it('runs the procedure end to end on RabbitMQ, for every account and with --account', async () => {
      const indexer = await startIndexerProcess(env)
      try {
        const cliEnv = { ...env, INDEXER_PORT: new URL(indexer.url).port }
        const all = await runCli(['reindex'], cliEnv)
        assert.equal(all.code, 0, all.stderr)
        assert.match(all.stdout, /queued 250 entries; all indexed \(0 pending\)\n$/)
        assert.deepEqual([await store.count(accounts[0], 'asset'), await store.count(accounts[1], 'asset')], [150, 100])

        await store.upsert(accounts[0], [{ type: 'asset', id: 'leftover', fields: {} }])
        await store.upsert(accounts[1], [{ type: 'asset', id: 'leftover', fields: {} }])
        const one = await runCli(['reindex', '--account', accounts[1]], cliEnv)
        assert.equal(one.code, 0, one.stderr)
        assert.match(one.stdout, /^rebuilt and swapped in 1 index; queued 100 entries; all indexed \(0 pending\)\n$/)
        assert.equal(await store.get(accounts[1], 'asset', 'leftover'), null)
        assert.ok(await store.get(accounts[0], 'asset', 'leftover'))
        assert.equal(await store.count(accounts[1], 'asset'), 100)
        assert.equal(await managementMessages(), 0)
      } finally {
        await indexer.stop()
      }
    })
  })
})
