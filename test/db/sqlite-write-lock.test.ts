import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { buildApp } from '../../src/app/build-app.ts'
import { createContext } from '../../src/app/context.ts'
import { loadConfig } from '../../src/config/index.ts'
import { openDatabase, sqliteHandleOf, type Database } from '../../src/db/index.ts'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'

// Another process writing the same SQLite file, played by a second connection of this one. A write
// transaction takes the write lock when it begins, so a write that comes in after its first read
// cannot make it fail; a database held longer than the busy timeout answers 503, never 500.
describe('SQLite write transactions beside another connection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-write-lock-'))
  const file = join(dir, 'probe.db')
  let database: Database
  let db: Kysely<any>
  /** The other writer; it never waits, so it cannot block this test's thread. */
  let other: SQLite.Database
  before(async () => {
    database = await openDatabase(`sqlite:${file}`)
    db = database.db as unknown as Kysely<any>
    await db.schema.createTable('probe').addColumn('name', 'text', (c) => c.notNull()).execute()
    other = new SQLite(file, { timeout: 0 })
  })
  after(async () => {
    other.close()
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('commits a transaction that read before writing, the other connection\'s write being turned away meanwhile', async () => {
    let otherWrite: unknown
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom('probe').selectAll().execute()
      try {
        other.prepare('INSERT INTO probe (name) VALUES (?)').run('other')
      } catch (error) {
        otherWrite = error
      }
      await trx.insertInto('probe').values({ name: 'ours' }).execute()
    })
    assert.equal((otherWrite as { code?: string } | undefined)?.code, 'SQLITE_BUSY', 'the transaction held the write lock from its start')
    assert.deepEqual((await db.selectFrom('probe').select('name').execute()).map((r) => r.name), ['ours'])
  })

  it('begins a read-only transaction without the write lock', async () => {
    await db.transaction().setAccessMode('read only').execute(async (trx) => {
      await trx.selectFrom('probe').selectAll().execute()
      other.prepare('INSERT INTO probe (name) VALUES (?)').run('beside a reader')
    })
    assert.equal((await db.selectFrom('probe').selectAll().where('name', '=', 'beside a reader').execute()).length, 1)
  })

  it('keeps the error that ended a transaction when SQLite already rolled it back', async () => {
    await assert.rejects(db.transaction().execute(async (trx) => {
      await trx.insertInto('probe').values({ name: 'rolled back' }).execute()
      // SQLite ends a transaction itself on some errors (a full disk); played here behind Kysely's back.
      sqliteHandleOf(database.db)?.exec('ROLLBACK')
      throw new Error('the cause')
    }), /the cause/)
    assert.equal((await db.selectFrom('probe').selectAll().where('name', '=', 'rolled back').execute()).length, 0)
  })
})

describe('a request while another process holds the SQLite write lock past the busy timeout', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-busy-'))
  const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent', CREDITS_ENABLED: 'false' })
  after(() => { rmSync(dataDir, { recursive: true, force: true }) })

  it('answers 503 database_busy with Retry-After, writes nothing, and writes once the lock is free', async () => {
    const ctx = await createContext(config)
    const app = await buildApp(ctx, { variant: 'api', logger: false })
    const holder = new SQLite(config.databaseUrl.slice('sqlite:'.length))
    try {
      const created = await ctx.services.accounts.create('Busy')
      const caller = { apiKey: created.administrator.api_key, secret: created.administrator.secret }
      const post = async (name: string) => {
        const body = JSON.stringify({ name })
        return await app.inject({
          method: 'POST',
          url: signedPath({ ...caller, method: 'POST', path: '/v2/labels', body }),
          payload: body,
          headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' }
        })
      }
      holder.exec('BEGIN IMMEDIATE')
      const refused = await post('Refused')
      holder.exec('ROLLBACK')
      assert.equal(refused.statusCode, 503, refused.body)
      assert.equal(refused.headers['retry-after'], '1')
      assert.equal(refused.json().code, 'database_busy')
      assert.match(refused.json().message, /busy/)
      const accepted = await post('Accepted')
      assert.equal(accepted.statusCode, 200, accepted.body)
      const labels = await ctx.db.selectFrom('labels').select('name').where('account_id', '=', created.account.id).execute()
      assert.deepEqual(labels.map((label) => label.name), ['Accepted'])
    } finally {
      holder.close()
      await app.close()
      await ctx.close()
    }
  })
})
