import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Kysely } from 'kysely'
import { compileWhere, parseWhere, type FieldMap, type WhereHooks } from '../../src/query/index.ts'
import { databaseBackends, openTestDatabase, type TestDatabase } from '../support/backends.ts'
import { ALL_IDS, createItems, FIELDS, HOOKS, type ItemTables } from './support/items.ts'

const none: string[] = []

// [where, ids of the rows it must select]; the rows are in support/items.ts.
const CASES: Array<[string, string[]]> = [
  ['', ALL_IDS],
  // word fields: every term, case-insensitively, plurals and stop words as Backlot does
  ['name=\'cat\'', ['a', 'b']],
  ['name=\'CAT video\'', ['b']],
  ['description=\'Cat videos\'', ['a']],
  ['name INCLUDES \'dog\'', ['c']],
  ['NAME includes \'DOG\'', ['c']],
  ['description!=\'dog\'', ['a', 'b', 'd', 'e']],
  ['name IN (\'dog\',\'ringer\')', ['c', 'd']],
  ['description=\'the\'', ['d']],
  ['description=\'\'', ALL_IDS],
  ['title=\'Café\'', ['e']],
  // numbers
  ['duration>600', ['a', 'b', 'd', 'e']],
  ['duration>=600 AND duration<1000', ['c', 'd']],
  ['duration=\'600\'', ['c']],
  ['duration IN (600, \'601\')', ['c', 'd']],
  ['duration>600.5', ['a', 'b', 'd', 'e']],
  ['duration<=-1', none],
  ['duration<99999999999999999999', ALL_IDS],
  ['duration!=600', ['a', 'b', 'd', 'e']],
  // enums and exact text
  ['status=\'LIVE\'', ['a', 'c', 'e']],
  ['status!=\'live\'', ['b', 'd']],
  ['status IN (\'live\',\'Error\')', ['a', 'c', 'd', 'e']],
  ['asset_type=\'remote_asset\'', ['d']],
  ['embed_code IN (\'a\',\'c\',\'zzz\')', ['a', 'c']],
  ['external_id>\'ext-2\'', ['d']],
  ['external_id!=\'ext-1\'', ['b', 'c', 'd', 'e']],
  // dates: a value covers its last written unit; stored times carry milliseconds
  ['created_at=\'2013-01-04T00:20:36Z\'', ['a']],
  ['created_at<=\'2013-01-04T00:20:36Z\'', ['a']],
  ['created_at<\'2013-01-04T00:20:36Z\'', none],
  ['created_at>\'2013-01-04T00:20:36Z\'', ['b', 'c', 'd', 'e']],
  ['created_at>=\'2013-01-04T00:20:37Z\'', ['b', 'c', 'd', 'e']],
  ['created_at=\'2013-01-04\'', ['a', 'b']],
  ['created_at!=\'2013-01-04\'', ['c', 'd', 'e']],
  ['created_at > \'2015-07-07T10:00:00+01:00\'', ['c', 'd', 'e']],
  ['created_at IN (\'2013-01-04T00:20:36Z\',\'2026-11-22\')', ['a', 'd', 'e']],
  ['created_at=\'2026-11-22T10:00:00.5Z\'', ['e']],
  ['created_at<=\'9999-12-31\'', ALL_IDS],
  // flight times: assets without one always match
  ['time_restrictions.start_date<=\'2011-06-01T00:00:00Z\'', ['a', 'b', 'd', 'e']],
  ['time_restrictions.start_date>\'2011-06-01\'', ['a', 'c', 'd']],
  // hooks: labels and metadata
  ['labels INCLUDES \'Music\'', ['a', 'b']],
  ['labels+INCLUDES+\'Music\'+AND+labels+INCLUDES+\'Sports\'', ['a']],
  ['labels INCLUDES \'Hip Hop\'', ['d']],
  ['metadata.rating=\'R\'', ['a']],
  ['metadata.year=2004', ['a']],
  ['metadata.rating IN (\'R\',\'PG\')', ['a', 'b']],
  ['metadata.\'odd(key)\'=\'x\'', ['d']],
  ['metadata.rating!=\'R\'', ['b', 'c', 'd', 'e']],
  ['metadata.rating>\'PG\'', ['a']],
  // values are data, never SQL
  ['name=\'x\'\' OR \'\'1\'\'=\'\'1\'', none],
  ['external_id=\'x\'\' OR \'\'1\'\'=\'\'1\'', none],
  ['status=\'live\' AND duration>600 AND labels INCLUDES \'Music\' AND metadata.rating=\'R\' AND created_at<\'2014-01-01\'', ['a']]
]

for (const backend of databaseBackends()) {
  describe(`compiled where filters on ${backend.name}`, { skip: backend.skip }, () => {
    let database: TestDatabase
    let db: Kysely<ItemTables>

    before(async () => {
      database = await openTestDatabase(backend.name)
      db = database.db.withTables<ItemTables>()
      await createItems(db)
    })
    after(async () => { await database?.close() })

    async function select (where: string, fields: FieldMap = FIELDS, hooks: WhereHooks = HOOKS): Promise<string[]> {
      const filter = compileWhere(parseWhere(where), fields, hooks)
      const rows = await db.selectFrom('query_items').select('id').where(filter).orderBy('id').execute()
      return rows.map((row) => row.id)
    }

    for (const [where, ids] of CASES) {
      it(`selects ${ids.length === 0 ? 'nothing' : ids.join(',')} for ${where === '' ? 'an empty where' : where}`, async () => {
        assert.deepEqual(await select(where), ids)
      })
    }

    it('binds every value as a parameter', () => {
      const where = 'name=\'x\'\' OR 1=1 --\' AND external_id=\'y\'\'; drop table query_items\' AND status=\'live\' AND duration>77'
      const query = db.selectFrom('query_items').select('id').where(compileWhere(parseWhere(where), FIELDS, HOOKS)).compile()
      assert.doesNotMatch(query.sql, /OR 1=1|drop|live|77/)
      assert.deepEqual(query.parameters, ['%x%', '%1%', 'y\'; drop table query_items', 'live', 77])
    })

    it('serves several queries with one compiled filter', async () => {
      const filter = compileWhere(parseWhere('status=\'live\''), FIELDS, HOOKS)
      const page = await db.selectFrom('query_items').select('id').where(filter).orderBy('id').limit(2).execute()
      const count = await db.selectFrom('query_items').select((eb) => eb.fn.countAll<number>().as('n')).where(filter).executeTakeFirstOrThrow()
      assert.deepEqual(page.map((row) => row.id), ['a', 'c'])
      assert.equal(Number(count.n), 3)
    })

    it('lets the caller replace word matching', async () => {
      const hooks: WhereHooks = { ...HOOKS, word: (eb, field, value) => eb(eb.ref(field.column), '=', value) }
      assert.deepEqual(await select('name=\'Dog training\' AND description INCLUDES \'Good dog\'', FIELDS, hooks), ['c'])
      assert.deepEqual(await select('name=\'dog\'', FIELDS, hooks), none)
    })
  })
}
