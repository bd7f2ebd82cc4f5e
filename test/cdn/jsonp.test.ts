import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ApiError } from '../../src/errors/index.ts'
import { assertValidCallback, isValidCallback, wrapJsonp, JSONP_HEADERS, MAX_CALLBACK_LENGTH } from '../../src/cdn/index.ts'

describe('JSONP callback names', () => {
  const accepted = [
    'cb', '_', '$', 'A1', '$.cb', '_cb$2', 'jQuery36001234_1700000000000', 'angular.callbacks._0', 'a.b.c',
    'this.cb', 'a.default', 'a.delete', 'window.new', 'eval', 'undefined', 'x'.repeat(MAX_CALLBACK_LENGTH),
    'a.' + 'b'.repeat(MAX_CALLBACK_LENGTH - 2)
  ]
  const refused: Array<[name: string, why: string]> = [
    ['', 'empty'],
    ['1cb', 'leading digit'],
    ['a.1b', 'segment with a leading digit'],
    ['.cb', 'leading dot'],
    ['cb.', 'trailing dot'],
    ['a..b', 'empty segment'],
    ['.', 'only a dot'],
    ['x'.repeat(MAX_CALLBACK_LENGTH + 1), 'too long'],
    ['cb()', 'parentheses'],
    ['cb;alert(1)', 'statement'],
    ['a-b', 'hyphen'],
    ['a b', 'space'],
    ['a[0]', 'brackets'],
    ['a\u00e9', 'non-ASCII letter'],
    ['cb\n', 'trailing newline'],
    ['<script>', 'markup'],
    ['delete', 'reserved word'],
    ['new.target', 'reserved first segment'],
    ['import', 'reserved word'],
    ['function', 'reserved word'],
    ['null', 'literal'],
    ['true.x', 'literal first segment'],
    ['await', 'reserved in modules']
  ]
  for (const name of accepted) {
    it(`accepts ${JSON.stringify(name.length > 20 ? name.slice(0, 20) + '…' : name)}`, () => assert.equal(isValidCallback(name), true))
  }
  for (const [name, why] of refused) {
    it(`refuses ${JSON.stringify(name.length > 20 ? name.slice(0, 20) + '…' : name)} (${why})`, () => assert.equal(isValidCallback(name), false))
  }

  it('answers a refused name with the 400 callback_invalid', () => {
    assert.throws(() => { assertValidCallback('a..b') }, (error: unknown) => {
      assert.ok(error instanceof ApiError)
      assert.equal(error.status, 400)
      assert.equal(error.code, 'callback_invalid')
      assert.match(error.message, /JavaScript identifier path .* at most 128 characters/)
      return true
    })
    assert.doesNotThrow(() => { assertValidCallback('angular.callbacks._0') })
  })
})

describe('JSONP bodies', () => {
  it('wrap a 200 object unchanged, to the byte', () => {
    const json = '{"embed_code":"a1","status":"live","name":"Caf\u00e9"}'
    const body = wrapJsonp('jQuery.cb_1', 200, json)
    assert.equal(body, 'jQuery.cb_1({"embed_code":"a1","status":"live","name":"Caf\u00e9"})')
    assert.deepEqual(Buffer.from(body), Buffer.concat([Buffer.from('jQuery.cb_1('), Buffer.from(json), Buffer.from(')')]))
  })

  it('wrap a 200 array unchanged', () => {
    assert.equal(wrapJsonp('cb', 200, '[{"id":1},{"id":2}]'), 'cb([{"id":1},{"id":2}])')
  })

  it('keep an error problem document as it is, its status already inside', () => {
    const problem = '{"message":"Label 1f does not exist.","type":"/docs/errors#not_found","title":"Not found","status":404,"detail":"Label 1f does not exist.","code":"not_found","request_id":"r-1"}'
    assert.equal(wrapJsonp('cb', 404, problem), `cb(${problem})`)
  })

  it('merge the status into an error object that lacks it, or correct it', () => {
    assert.equal(wrapJsonp('cb', 404, '{"message":"Not found"}'), 'cb({"message":"Not found","status":404})')
    assert.equal(wrapJsonp('cb', 429, '{"status":200,"message":"Slow down"}'), 'cb({"status":429,"message":"Slow down"})')
  })

  it('put an error body that is not an object under data, and text under message', () => {
    assert.equal(wrapJsonp('cb', 500, '[1,2]'), 'cb({"status":500,"data":[1,2]})')
    assert.equal(wrapJsonp('cb', 502, 'Bad gateway'), 'cb({"status":502,"message":"Bad gateway"})')
  })

  it('escape U+2028 and U+2029, in successes and errors alike', () => {
    assert.equal(wrapJsonp('cb', 200, '{"name":"a\u2028b\u2029c"}'), 'cb({"name":"a\\u2028b\\u2029c"})')
    assert.equal(wrapJsonp('cb', 400, '{"message":"bad \u2028"}'), 'cb({"message":"bad \\u2028","status":400})')
    assert.deepEqual(JSON.parse(wrapJsonp('cb', 200, '{"name":"a\u2028b"}').slice(3, -1)), { name: 'a\u2028b' })
  })

  it('refuse to wrap with a name that was not validated', () => {
    assert.throws(() => wrapJsonp('alert(1);cb', 200, '{}'), TypeError)
  })

  it('are served as script that browsers may not sniff', () => {
    assert.deepEqual(JSONP_HEADERS, { 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' })
  })
})
