import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql, type Kysely } from 'kysely'
import { prepared, SLOT } from '../../src/db/index.ts'
import { databaseBackends, openTestDatabase, type TestDatabase } from '../support/backends.ts'

interface ProbeRow { account_id: string, id: string, name: string }

for (const backend of databaseBackends()) {
  describe(`prepared queries on ${backend.name}`, { skip: backend.skip }, () => {
    let database: TestDatabase
    let db: Kysely<any>
    before(async () => {
      database = await openTestDatabase(backend.name)
      db = database.db as unknown as Kysely<any>
      await db.schema.createTable('prepared_probe')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute()
      await db.insertInto('prepared_probe').values([
        { account_id: 'a1', id: 'x', name: 'first' },
        { account_id: 'a1', id: 'y', name: 'second' },
        { account_id: 'a2', id: 'x', name: 'other account' }
      ]).execute()
    })
    after(async () => { await database.close() })

    const byId = (runner: Kysely<any>) => prepared<ProbeRow>(runner.selectFrom('prepared_probe').selectAll()
      .where('account_id', '=', SLOT).where('id', '=', SLOT))

    it('fills the slots in order on every run', async () => {
      const query = byId(db)
      assert.equal((await query.first(db, 'a1', 'x'))?.name, 'first')
      assert.equal((await query.first(db, 'a2', 'x'))?.name, 'other account')
      assert.equal((await query.first(db, 'a1', 'y'))?.name, 'second')
      assert.equal(await query.first(db, 'a2', 'y'), undefined)
    })

    it('keeps the parameters that are not slots, such as a limit', async () => {
      const query = prepared<ProbeRow>(db.selectFrom('prepared_probe').selectAll().where('account_id', '=', SLOT)
        .orderBy(sql`CASE WHEN id = ${SLOT} THEN 0 ELSE 1 END`).orderBy('id').limit(1))
      assert.equal((await query.first(db, 'a1', 'y'))?.id, 'y')
      assert.equal((await query.first(db, 'a1', 'x'))?.id, 'x')
    })

    it('refuses a run with the wrong number of values', async () => {
      await assert.rejects(byId(db).first(db, 'a1'), /takes 2 values, got 1/)
    })

    it('sees a transaction\'s own rows inside it, and never from outside before it commits', async () => {
      const query = byId(db)
      let outside: Promise<ProbeRow | undefined> | undefined
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('prepared_probe').values({ account_id: 'a1', id: 'z', name: 'pending' }).execute()
        assert.equal((await query.first(trx, 'a1', 'z'))?.name, 'pending')
        // On SQLite the one connection is in the transaction: this read must wait for it, not read its rows.
        outside = query.first(db, 'a1', 'z')
        await new Promise((resolve) => setTimeout(resolve, 20))
        await trx.deleteFrom('prepared_probe').where('id', '=', 'z').execute()
      })
      assert.equal(await outside, undefined)
    })

    it('runs one query on two databases, each answering from its own rows', async () => {
      const other = await openTestDatabase(backend.name)
      try {
        const otherDb = other.db as unknown as Kysely<any>
        await otherDb.schema.createTable('prepared_probe')
          .addColumn('account_id', 'text', (c) => c.notNull()).addColumn('id', 'text', (c) => c.notNull()).addColumn('name', 'text', (c) => c.notNull())
          .execute()
        await otherDb.insertInto('prepared_probe').values({ account_id: 'a1', id: 'x', name: 'in the other database' }).execute()
        const query = byId(db)
        for (let round = 0; round < 2; round++) {
          assert.equal((await query.first(db, 'a1', 'x'))?.name, 'first')
          assert.equal((await query.first(otherDb, 'a1', 'x'))?.name, 'in the other database')
        }
      } finally {
        await other.close()
      }
    })

    it('answers with the new shape after the table changed under a query already run', async () => {
      const query = byId(db)
      assert.equal((await query.first(db, 'a1', 'y'))?.name, 'second')
      await db.schema.alterTable('prepared_probe').addColumn('note', 'text', (c) => c.defaultTo('added')).execute()
      assert.deepEqual({ ...(await query.first(db, 'a1', 'y')) }, { account_id: 'a1', id: 'y', name: 'second', note: 'added' })
    })
  })
}
