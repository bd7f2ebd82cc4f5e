import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { msUntilReset, resetSeconds, windowIndex, windowStart } from '../../src/credits/index.ts'

const minute = Date.UTC(2026, 10, 22, 10, 0, 0)

describe('credit windows', () => {
  it('start on the wall-clock minute', () => {
    assert.equal(windowStart(minute), minute)
    assert.equal(windowStart(minute + 59_999), minute)
    assert.equal(windowStart(minute + 60_000), minute + 60_000)
    assert.equal(windowIndex(minute + 60_000) - windowIndex(minute + 59_999), 1)
  })

  it('count reset seconds up, from 60 at the boundary down to 1, never 0', () => {
    const table: Array<[offsetMs: number, seconds: number]> = [
      [0, 60], [1, 60], [999, 60], [1_000, 59], [29_500, 31], [30_000, 30], [58_999, 2], [59_000, 1], [59_999, 1], [60_000, 60]
    ]
    for (const [offset, seconds] of table) assert.equal(resetSeconds(minute + offset), seconds, `at +${offset} ms`)
  })

  it('give the milliseconds left in (0, 60000]', () => {
    assert.equal(msUntilReset(minute), 60_000)
    assert.equal(msUntilReset(minute + 59_999), 1)
  })
})
