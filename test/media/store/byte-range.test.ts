import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { contentRange, parseRangeHeader, resolveRange, type ByteRange } from '../../../src/media/store/index.ts'

describe('Range headers', () => {
  it('reads one byte range in each of its three forms', () => {
    assert.deepEqual(parseRangeHeader('bytes=0-99'), { start: 0, end: 99 })
    assert.deepEqual(parseRangeHeader('bytes=100-'), { start: 100 })
    assert.deepEqual(parseRangeHeader('bytes=-500'), { suffix: 500 })
    assert.deepEqual(parseRangeHeader(' bytes=5-5 '), { start: 5, end: 5 })
  })

  it('ignores what a media server may ignore: other units, several ranges, reversed ranges, garbage', () => {
    for (const header of [undefined, '', 'bytes=', 'bytes=-', 'items=0-1', 'bytes=0-1,3-4', 'bytes=9-3', 'bytes=a-b', 'bytes=1-2-3', 'bytes=1234567890123456-']) {
      assert.equal(parseRangeHeader(header), undefined, String(header))
    }
  })

  it('places a range inside an object, clamping the end, or answers null when nothing of it exists', () => {
    const cases: Array<[ByteRange, number, { start: number, end: number } | null]> = [
      [{ start: 0, end: 9 }, 100, { start: 0, end: 9 }],
      [{ start: 90, end: 1000 }, 100, { start: 90, end: 99 }],
      [{ start: 99 }, 100, { start: 99, end: 99 }],
      [{ start: 100 }, 100, null],
      [{ start: 0 }, 0, null],
      [{ suffix: 10 }, 100, { start: 90, end: 99 }],
      [{ suffix: 1000 }, 100, { start: 0, end: 99 }],
      [{ suffix: 0 }, 100, null],
      [{ suffix: 5 }, 0, null]
    ]
    for (const [range, size, expected] of cases) assert.deepEqual(resolveRange(range, size), expected, `${JSON.stringify(range)} of ${size}`)
  })

  it('writes Content-Range as bytes a-b/size', () => {
    assert.equal(contentRange({ start: 90, end: 99 }, 100), 'bytes 90-99/100')
  })
})
