import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely'
import { compileWhere, parseWhere, textPredicates, WhereError, WhereSyntaxError, type FieldMap, type WhereHooks } from '../../src/query/index.ts'
import { FIELDS, HOOKS } from './support/items.ts'

const SMALL: FieldMap = { name: { column: 'name', type: 'word' }, duration: { column: 'duration', type: 'number' } }
const STATUSES = 'uploading, processing, live, paused, error'
const ISO = 'takes an ISO 8601 date such as \'2011-06-01T00:00:00Z\''

// [where, field map, hooks, message, position]
const INVALID: Array<[string, FieldMap, WhereHooks, string, number]> = [
  ['foo=\'x\'', SMALL, HOOKS, 'Unknown field \'foo\' (fields: name, duration, labels, metadata.<name>) at position 0.', 0],
  ['name=\'a\' AND dur>5', SMALL, {}, 'Unknown field \'dur\' (fields: name, duration) at position 13.', 13],
  ['labels INCLUDES \'x\'', SMALL, {}, 'Unknown field \'labels\' (fields: name, duration) at position 0.', 0],
  ['metadata.rating=\'R\'', SMALL, {}, 'Unknown field \'metadata.rating\' (fields: name, duration) at position 0.', 0],
  ['duration=\'abc\'', FIELDS, HOOKS, 'duration takes a number, not \'abc\' at position 9.', 9],
  ['duration>\'1e3\'', FIELDS, HOOKS, 'duration takes a number, not \'1e3\' at position 9.', 9],
  ['duration IN (1, \'\')', FIELDS, HOOKS, 'duration takes a number, not \'\' at position 16.', 16],
  ['status=\'done\'', FIELDS, HOOKS, `status takes one of ${STATUSES}, not 'done' at position 7.`, 7],
  ['status IN (\'live\', \'gone\')', FIELDS, HOOKS, `status takes one of ${STATUSES}, not 'gone' at position 19.`, 19],
  ['status>\'live\'', FIELDS, HOOKS, 'status takes =, != or IN, not > at position 0.', 0],
  ['created_at>\'yesterday\'', FIELDS, HOOKS, `created_at ${ISO}, not 'yesterday' at position 11.`, 11],
  ['created_at>2011', FIELDS, HOOKS, `created_at ${ISO}, not '2011' at position 11.`, 11],
  ['created_at=\'2011-02-30\'', FIELDS, HOOKS, `created_at ${ISO}, not '2011-02-30' at position 11.`, 11],
  ['name<\'m\'', FIELDS, HOOKS, 'name matches words and takes =, !=, IN or INCLUDES, not < at position 0.', 0],
  ['duration INCLUDES 5', FIELDS, HOOKS, 'duration does not support INCLUDES (it works on labels and on word fields) at position 0.', 0],
  ['labels=\'Music\'', FIELDS, HOOKS, 'labels takes only INCLUDES, as in labels INCLUDES \'Sports\' at position 0.', 0],
  ['metadata.=\'x\'', FIELDS, HOOKS, 'Expected a metadata name after \'metadata.\' at position 9.', 9],
  ['metadata.x INCLUDES \'y\'', FIELDS, HOOKS, 'metadata.x does not support INCLUDES at position 0.', 0]
]

describe('compiling where against a field map', () => {
  for (const [where, fields, hooks, message, position] of INVALID) {
    it(`rejects ${where} at position ${position}`, () => {
      const ast = parseWhere(where)
      assert.throws(() => compileWhere(ast, fields, hooks), (error: unknown) => {
        assert.ok(error instanceof WhereError)
        assert.ok(!(error instanceof WhereSyntaxError))
        assert.equal(error.code, 'where_invalid')
        assert.equal(error.status, 400)
        assert.equal(error.message, message)
        assert.equal(error.position, position)
        return true
      })
    })
  }

  it('matches field names case-insensitively and metadata keys exactly', () => {
    let key = ''
    const hooks: WhereHooks = { metadata: (eb, name) => { key = name; return eb.and([]) } }
    const filter = compileWhere(parseWhere('DURATION>1 AND Metadata.Rating=\'R\''), SMALL, hooks)
    const query = filterSql(filter)
    assert.match(query, /"duration" > \?/)
    assert.equal(key, 'Rating')
  })
})

describe('text predicates', () => {
  it('lists word-field and label clauses with their values, for credits and the search index', () => {
    const ast = parseWhere('name=\'a\' AND labels INCLUDES \'b\' AND duration>5 AND description IN (\'c\',\'d\') AND metadata.x=\'e\'')
    assert.deepEqual(textPredicates(ast, FIELDS), [
      { field: 'name', value: 'a', position: 5 },
      { field: 'labels', value: 'b', position: 29 },
      { field: 'description', value: 'c', position: 68 },
      { field: 'description', value: 'd', position: 72 }
    ])
  })

  it('finds none in a query on plain fields', () => {
    assert.deepEqual(textPredicates(parseWhere('duration>5 AND status=\'live\''), FIELDS), [])
  })
})

/** The SQL a filter produces, compiled without a database (Kysely's documented "cold" setup). */
function filterSql (filter: ReturnType<typeof compileWhere>): string {
  const cold = new Kysely<any>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler()
    }
  })
  return cold.selectFrom('t').selectAll().where(filter).compile().sql
}
