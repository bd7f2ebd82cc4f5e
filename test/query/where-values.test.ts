import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { dateSpan, wordTerms } from '../../src/query/index.ts'

describe('date values', () => {
  const spans: Array<[string, string, string, boolean?]> = [
    ['2013-01-04T00:20:36Z', '2013-01-04T00:20:36.000Z', '2013-01-04T00:20:37.000Z'],
    ['2013-01-04T00:20:36.123Z', '2013-01-04T00:20:36.123Z', '2013-01-04T00:20:36.124Z'],
    ['2013-01-04T00:20:36.5Z', '2013-01-04T00:20:36.500Z', '2013-01-04T00:20:36.600Z'],
    ['2013-01-04T00:20:36.123456Z', '2013-01-04T00:20:36.123Z', '2013-01-04T00:20:36.124Z'],
    ['2013-01-04T00:20Z', '2013-01-04T00:20:00.000Z', '2013-01-04T00:21:00.000Z'],
    ['2013-01-04', '2013-01-04T00:00:00.000Z', '2013-01-05T00:00:00.000Z'],
    ['2013-01-04T00:20:36', '2013-01-04T00:20:36.000Z', '2013-01-04T00:20:37.000Z'],
    ['2013-01-04 00:20:36z', '2013-01-04T00:20:36.000Z', '2013-01-04T00:20:37.000Z'],
    ['2015-07-07T10:00:00+01:00', '2015-07-07T09:00:00.000Z', '2015-07-07T09:00:01.000Z'],
    ['2015-07-07T10:00:00-0530', '2015-07-07T15:30:00.000Z', '2015-07-07T15:30:01.000Z'],
    ['2015-07-07T00:00:00+02', '2015-07-06T22:00:00.000Z', '2015-07-06T22:00:01.000Z'],
    ['2012-02-29', '2012-02-29T00:00:00.000Z', '2012-03-01T00:00:00.000Z'],
    ['0050-01-01', '0050-01-01T00:00:00.000Z', '0050-01-02T00:00:00.000Z'],
    ['9999-12-31', '9999-12-31T00:00:00.000Z', '9999-12-31T23:59:59.999Z', true]
  ]
  for (const [text, from, to, toInclusive = false] of spans) {
    it(`reads '${text}' as the span from ${from}`, () => {
      assert.deepEqual(dateSpan(text), { from, to, toInclusive })
    })
  }

  const invalid = ['yesterday', '2011', '2011-06', '2011-6-1', '2011-02-30', '2013-02-29', '2011-13-01', '2011-06-01T24:00:00Z',
    '2011-06-01T10:60Z', '2011-06-01Z', '2011-06-01T10:00:00+24:00', '0000-01-01T00:00:00+01:00', '9999-12-31T23:00:00-05:00', ' 2011-06-01']
  for (const text of invalid) {
    it(`refuses '${text}'`, () => {
      assert.equal(dateSpan(text), undefined)
    })
  }
})

describe('word terms', () => {
  const terms: Array<[string, string[]]> = [
    ['Cat videos', ['cat', 'video']],
    ['Funny video of a cat', ['funny', 'video', 'cat']],
    ['The The', ['the']],
    ['Hip+Hop / R&B', ['hip', 'hop', 'r', 'b']],
    ['ÉMILE à Paris', ['émile', 'à', 'paris']],
    ['class bus analysis news', ['class', 'bus', 'analysis', 'new']],
    ['50% off_now', ['50', 'off', 'now']],
    ['', []],
    ['  --  ', []]
  ]
  for (const [value, expected] of terms) {
    it(`splits '${value}' into ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(wordTerms(value), expected)
    })
  }
})
