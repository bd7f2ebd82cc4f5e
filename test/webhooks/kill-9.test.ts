import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { withAccountLock } from '../../src/db/account-lock.ts'
import { migrateToLatest, openDatabase, type Database } from '../../src/db/index.ts'
import { recordEvents } from '../../src/webhooks/index.ts'
import { databaseBackends, openTestDatabase, type TestDatabase } from '../support/backends.ts'
import { buildTestApp, TEST_MASTER_KEY, type TestApp } from '../support/app.ts'
import { eventually } from './support/delivery.ts'
import { Receiver } from './support/receiver.ts'

const EVENTS = 500

/** Starts the delivering process and resolves once it runs. */
async function startWorker (env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'support/delivery-process.ts')], { env: { ...process.env, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => { if (chunk.toString().includes('ready')) resolve() })
    child.on('exit', (code) => { reject(new Error(`the worker exited with ${code}`)) })
  })
  return child
}

for (const backend of databaseBackends()) {
  describe(`webhook delivery survives kill -9 on ${backend.name}`, { skip: backend.skip, timeout: 60_000 }, () => {
    let t: TestApp
    let database: Database | TestDatabase
    let dir: string
    let env: Record<string, string>
    let receiver: Receiver
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'reelhouse-webhooks-kill-'))
      if (backend.name === 'sqlite') {
        const url = `sqlite:${join(dir, 'reelhouse.db')}`
        database = await openDatabase(url)
        await migrateToLatest(database.db)
        env = { DATABASE_URL: url }
      } else {
        const opened = await openTestDatabase('postgres')
        database = opened
        env = { DATABASE_URL: opened.url, DATABASE_SCHEMA: opened.schema ?? '' }
      }
      t = await buildTestApp(backend.name, { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_ALLOW_HTTP: 'true' }, 'api', database)
      receiver = await Receiver.start([])
    })
    after(async () => {
      await receiver.close()
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    })

    it(`delivers every one of ${EVENTS} events at least once, duplicates only with the same webhook-id`, async () => {
      const hook = (await t.signed('POST', '/v2/webhooks', { body: { url: receiver.url } })).json()
      receiver.secrets = [hook.secret]
      // Slow answers keep many deliveries in flight when the worker dies.
      receiver.answer = async () => { await new Promise((resolve) => setTimeout(resolve, 5)); return 200 }
      for (let i = 0; i < EVENTS; i += 100) {
        await withAccountLock(database, t.admin.accountId, async (trx) => {
          await recordEvents(trx, t.admin.accountId, Array.from({ length: 100 }, (_, n) => ({ type: 'asset.updated', data: { n: i + n } })), Date.now())
        })
      }
      let worker = await startWorker(env)
      await receiver.until(() => receiver.ids().size >= 100)
      worker.kill('SIGKILL')
      await new Promise((resolve) => worker.once('exit', resolve))
      const before = receiver.ids().size
      assert.ok(before < EVENTS, 'killed with events in flight')
      worker = await startWorker(env)
      try {
        await receiver.until(() => receiver.ids().size === EVENTS)
        await eventually(async () => Number((await database.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).where('state', '=', 'succeeded').executeTakeFirstOrThrow()).n) === EVENTS)
      } finally {
        worker.kill('SIGKILL')
      }
      assert.deepEqual(receiver.rejected, [])
      const bodies = new Map<string, string>()
      for (const d of receiver.received) {
        const seen = bodies.get(d.id)
        if (seen !== undefined) assert.equal(d.body, seen, 'a duplicate is the same event under the same webhook-id')
        bodies.set(d.id, d.body)
        assert.equal(JSON.parse(d.body).id, d.id)
      }
      const ns = new Set([...bodies.values()].map((body) => JSON.parse(body).data.n))
      assert.equal(ns.size, EVENTS)
    })
  })
}
