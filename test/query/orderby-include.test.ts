import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ApiError } from '../../src/errors/api-error.ts'
import { parseInclude, parseOrderBy } from '../../src/query/index.ts'

const USAGE = 'orderby takes one of name, duration, asset_type, created_at, updated_at, optionally followed by ascending or descending.'

function assertInvalid (run: () => unknown, parameter: string, message: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError)
    assert.equal(error.status, 400)
    assert.equal(error.code, 'validation_failed')
    assert.equal(error.message, message)
    assert.deepEqual(error.extras, { errors: { [parameter]: [message] } })
    return true
  })
}

describe('orderby', () => {
  const valid: Array<[string | undefined, string, string]> = [
    [undefined, 'created_at', 'desc'],
    ['', 'created_at', 'desc'],
    [' + ', 'created_at', 'desc'],
    ['name', 'name', 'asc'],
    ['name+DESCENDING', 'name', 'desc'],
    ['created_at ascending', 'created_at', 'asc'],
    ['created_at descending', 'created_at', 'desc'],
    ['Duration  Desc', 'duration', 'desc'],
    ['asset_type+asc', 'asset_type', 'asc'],
    ['updated_at\tdescending', 'updated_at', 'desc']
  ]
  for (const [raw, field, direction] of valid) {
    it(`reads ${JSON.stringify(raw)} as ${field} ${direction}`, () => {
      assert.deepEqual(parseOrderBy(raw), { field, direction })
    })
  }

  const invalid: Array<[string, string]> = [
    ['embed_code', `Cannot order by 'embed_code'; ${USAGE}`],
    ['name,created_at', `Cannot order by 'name,created_at'; ${USAGE}`],
    ['name upward', `Unknown sort direction 'upward'; ${USAGE}`],
    ['name descending now', `Cannot order by 'name descending now'; ${USAGE}`]
  ]
  for (const [raw, message] of invalid) {
    it(`answers 400 for ${JSON.stringify(raw)}`, () => {
      assertInvalid(() => parseOrderBy(raw), 'orderby', message)
    })
  }

  it('takes the fields and the default from the resource', () => {
    const options = { fields: ['name', 'full_name'] as const, default: { field: 'name', direction: 'asc' } as const }
    assert.deepEqual(parseOrderBy(undefined, options), { field: 'name', direction: 'asc' })
    assert.deepEqual(parseOrderBy('FULL_NAME desc', options), { field: 'full_name', direction: 'desc' })
    assertInvalid(() => parseOrderBy('duration', options), 'orderby',
      'Cannot order by \'duration\'; orderby takes one of name, full_name, optionally followed by ascending or descending.')
  })

  it('refuses a default that is not among the fields, as a programming error', () => {
    assert.throws(() => parseOrderBy(undefined, { fields: ['name'] }), { message: 'default orderby field created_at is not among the fields' })
  })
})

describe('include', () => {
  const valid: Array<[string | undefined, string[]]> = [
    [undefined, []],
    ['', []],
    ['metadata', ['metadata']],
    ['metadata,labels,player', ['metadata', 'labels', 'player']],
    ['Labels, +metadata,,labels,', ['labels', 'metadata']]
  ]
  for (const [raw, expected] of valid) {
    it(`reads ${JSON.stringify(raw)}`, () => {
      assert.deepEqual([...parseInclude(raw)], expected)
    })
  }

  it('names an unknown value', () => {
    assertInvalid(() => parseInclude('metadata,primary_preview_image'), 'include',
      'Unknown include value \'primary_preview_image\'; include takes metadata, labels, player.')
  })

  it('names every unknown value once', () => {
    assertInvalid(() => parseInclude('foo,labels,bar,foo'), 'include',
      'Unknown include values \'foo\', \'bar\'; include takes metadata, labels, player.')
  })

  it('takes the allowed values from the resource', () => {
    const allowed = ['metadata', 'labels', 'player', 'primary_preview_image'] as const
    assert.deepEqual([...parseInclude('primary_preview_image', allowed)], ['primary_preview_image'])
  })
})
