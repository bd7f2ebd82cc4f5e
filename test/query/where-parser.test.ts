import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../../src/errors/api-error.ts'
import { parseWhere, WHERE_LIMITS, WhereSyntaxError, type WhereAst, type WhereLiteral } from '../../src/query/index.ts'

/** The AST on one line, positions included: `name@0 = 'x'@5 AND duration@13 > 600@22`. */
function render (ast: WhereAst): string {
  const literal = (value: WhereLiteral): string => value.kind === 'string' ? `'${value.text}'@${value.position}` : `${value.text}@${value.position}`
  return ast.clauses.map((clause) => {
    const field = `${clause.field.name}@${clause.field.position}`
    if (clause.type === 'compare') return `${field} ${clause.op} ${literal(clause.value)}`
    if (clause.type === 'includes') return `${field} INCLUDES ${literal(clause.value)}`
    return `${field} IN (${clause.values.map(literal).join(', ')})`
  }).join(' AND ')
}

describe('where parser', () => {
  it('builds compare, IN and INCLUDES clauses with their positions', () => {
    assert.deepEqual(parseWhere('duration>600 AND embed_code IN (\'a\',\'b\') AND labels INCLUDES \'Sports\''), {
      clauses: [
        { type: 'compare', field: { name: 'duration', position: 0 }, op: '>', value: { kind: 'number', text: '600', position: 9 } },
        {
          type: 'in',
          field: { name: 'embed_code', position: 17 },
          values: [{ kind: 'string', text: 'a', position: 32 }, { kind: 'string', text: 'b', position: 36 }]
        },
        { type: 'includes', field: { name: 'labels', position: 45 }, value: { kind: 'string', text: 'Sports', position: 61 } }
      ]
    })
  })

  const valid: Array<[string, string]> = [
    ['', ''],
    ['  + ', ''],
    ['status=\'live\'', 'status@0 = \'live\'@7'],
    ['duration >= 600', 'duration@0 >= 600@12'],
    ['duration!=-5', 'duration@0 != -5@10'],
    ['asset_type=\'remote_asset\' AND duration<=1.5', 'asset_type@0 = \'remote_asset\'@11 AND duration@30 <= 1.5@40'],
    ['a=1 and b=2 AnD c=3', 'a@0 = 1@2 AND b@8 = 2@10 AND c@16 = 3@18'],
    ['labels+INCLUDES+\'Music\'+AND+labels+includes+\'Hip+Hop\'', 'labels@0 INCLUDES \'Music\'@16 AND labels@28 INCLUDES \'Hip+Hop\'@44'],
    ['name INCLUDES \'x\' AND description INCLUDES \'y\'', 'name@0 INCLUDES \'x\'@14 AND description@22 INCLUDES \'y\'@43'],
    ['metadata.category=\'Cat Videos\'', 'metadata.category@0 = \'Cat Videos\'@18'],
    ['metadata.year=2004', 'metadata.year@0 = 2004@14'],
    ['time_restrictions.start_date<=\'2011-06-01T00:00:00Z\'', 'time_restrictions.start_date@0 <= \'2011-06-01T00:00:00Z\'@30'],
    ['created_at > \'2015-07-07T10:00:00+01:00\'', 'created_at@0 > \'2015-07-07T10:00:00+01:00\'@13'],
    ['embed_code in ( \'a\' , 2 ,\'c\' )', 'embed_code@0 IN (\'a\'@16, 2@22, \'c\'@25)'],
    ['name=\'O\'\'Brien\' AND description=\'it\\\'s\'', 'name@0 = \'O\'Brien\'@5 AND description@20 = \'it\'s\'@32'],
    ['status=\'live\'AND duration>5', 'status@0 = \'live\'@7 AND duration@17 > 5@26']
  ]
  for (const [source, expected] of valid) {
    it(`parses ${JSON.stringify(source)}`, () => {
      assert.equal(render(parseWhere(source)), expected)
    })
  }

  const invalid: Array<[string, string, number]> = [
    ['status=', 'Expected a value after \'=\' at position 7.', 7],
    ['status = AND duration>5', 'Expected a value after \'=\' at position 9.', 9],
    ['status=live', 'Expected a value after \'=\' at position 7.', 7],
    ['name==\'a\'', 'Expected a value after \'=\' at position 5.', 5],
    ['duration>=)', 'Expected a value after \'>=\' at position 10.', 10],
    ['=\'x\'', 'Expected a field name at position 0.', 0],
    ['\'name\'=\'x\'', 'Expected a field name at position 0.', 0],
    ['IN=1', 'Expected a field name at position 0.', 0],
    ['name=\'a\' AND', 'Expected a field name after AND at position 12.', 12],
    ['name=\'a\' AND AND x=1', 'Expected a field name after AND at position 13.', 13],
    ['name=\'a\' AND (duration>5)', 'Expected a field name after AND at position 13.', 13],
    ['name=\'a\' OR name=\'b\'', 'OR is not supported (only AND can join clauses) at position 9.', 9],
    ['name=\'a\'+or+name=\'b\'', 'OR is not supported (only AND can join clauses) at position 9.', 9],
    ['name=\'a\' duration>5', 'Expected AND or the end of the expression at position 9.', 9],
    ['name=\'a\')', 'Expected AND or the end of the expression at position 8.', 8],
    ['created_at > 2026-11-01', 'Dates are quoted strings: write \'2026-11-01\' at position 13.', 13],
    ['updated_at<=2026-11-01T10:00:00Z AND name=\'a\'', 'Dates are quoted strings: write \'2026-11-01T10:00:00Z\' at position 12.', 12],
    ['created_at IN (2026-1-5)', 'Dates are quoted strings: write \'2026-1-5\' at position 15.', 15],
    ['name', 'Expected an operator (=, !=, <, <=, >, >=, IN or INCLUDES) after \'name\' at position 4.', 4],
    ['name \'a\'', 'Expected an operator (=, !=, <, <=, >, >=, IN or INCLUDES) after \'name\' at position 5.', 5],
    ['embed_code NOT IN (\'a\')', 'Expected an operator (=, !=, <, <=, >, >=, IN or INCLUDES) after \'embed_code\' at position 11.', 11],
    ['embed_code IN \'a\'', 'Expected \'(\' after IN at position 14.', 14],
    ['embed_code IN ()', 'Expected a value after \'(\' at position 15.', 15],
    ['embed_code IN (\'a\' \'b\')', 'Expected \',\' or \')\' in the IN list at position 19.', 19],
    ['embed_code IN (\'a\',)', 'Expected a value after \',\' at position 19.', 19],
    ['embed_code IN (\'a\'', 'Expected \',\' or \')\' in the IN list at position 18.', 18],
    ['labels INCLUDES', 'Expected a value after INCLUDES at position 15.', 15],
    ['name=\'abc', 'Unterminated string starting at position 5.', 5]
  ]
  for (const [source, message, position] of invalid) {
    it(`rejects ${JSON.stringify(source)} at position ${position}`, () => {
      assert.throws(() => parseWhere(source), (error: unknown) => {
        assert.ok(error instanceof WhereSyntaxError)
        assert.equal(error.message, message)
        assert.equal(error.position, position)
        return true
      })
    })
  }

  it('is a 400 where_invalid problem carrying the position', () => {
    assert.throws(() => parseWhere('status='), (error: unknown) => {
      assert.ok(error instanceof ApiError)
      assert.equal(error.status, 400)
      assert.equal(error.code, 'where_invalid')
      assert.deepEqual(error.extras, { position: 7, errors: { where: ['Expected a value after \'=\' at position 7.'] } })
      return true
    })
  })

  it(`accepts ${WHERE_LIMITS.clauses} clauses and refuses one more`, () => {
    const clauses = Array.from({ length: WHERE_LIMITS.clauses }, () => 'a=1')
    assert.equal(parseWhere(clauses.join(' AND ')).clauses.length, WHERE_LIMITS.clauses)
    const source = [...clauses, 'a=1'].join(' AND ')
    assert.throws(() => parseWhere(source), {
      message: `Too many clauses (at most ${WHERE_LIMITS.clauses}) at position ${source.length - 7}.`
    })
  })

  it(`accepts ${WHERE_LIMITS.listValues} values in an IN list and refuses one more`, () => {
    const values = Array.from({ length: WHERE_LIMITS.listValues }, () => '1')
    assert.equal(parseWhere(`a IN (${values.join(',')})`).clauses.length, 1)
    const source = `a IN (${[...values, '1'].join(',')})`
    assert.throws(() => parseWhere(source), {
      message: `Too many values in the IN list (at most ${WHERE_LIMITS.listValues}) at position ${source.length - 3}.`
    })
  })
})
