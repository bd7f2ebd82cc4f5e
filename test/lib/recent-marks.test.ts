import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { RecentMarks } from '../../src/lib/recent-marks.ts'

describe('RecentMarks', () => {
  it('answers "marked" only for keys marked after the sequence was read', () => {
    const marks = new RecentMarks(10)
    marks.mark(['a'])
    const began = marks.sequence
    assert.equal(marks.markedSince(began, ['a', 'b']), false)
    marks.mark(['b'])
    assert.equal(marks.markedSince(began, ['a']), false)
    assert.equal(marks.markedSince(began, ['a', 'b']), true)
    assert.equal(marks.markedSince(marks.sequence, ['b']), false)
  })

  it('keeps no more than its bound, and a request older than a forgotten mark is answered "marked"', () => {
    const marks = new RecentMarks(3)
    const first = marks.sequence
    for (const key of ['a', 'b', 'c', 'd', 'e']) marks.mark([key])
    assert.equal(marks.size, 3)
    // 'a' and 'b' were forgotten at sequences 1 and 2: anything read before 2 may have missed them.
    assert.equal(marks.markedSince(first, ['z']), true)
    assert.equal(marks.markedSince(1, ['z']), true)
    assert.equal(marks.markedSince(2, ['z']), false)
    assert.equal(marks.markedSince(2, ['c']), true)
  })

  it('moves a key marked again to the newest end, so the oldest marks are the ones forgotten', () => {
    const marks = new RecentMarks(2)
    marks.mark(['a'])
    marks.mark(['b'])
    marks.mark(['a'])
    const began = marks.sequence
    marks.mark(['c'])
    // 'b' (sequence 2) went, 'a' (sequence 3) stayed.
    assert.equal(marks.size, 2)
    assert.equal(marks.markedSince(2, ['z']), false)
    assert.equal(marks.markedSince(1, ['z']), true)
    assert.equal(marks.markedSince(began, ['a']), false)
    assert.equal(marks.markedSince(began, ['c']), true)
  })

  it('marks everything at once', () => {
    const marks = new RecentMarks(10)
    marks.mark(['a'])
    const began = marks.sequence
    marks.markAll()
    assert.equal(marks.size, 0)
    assert.equal(marks.markedSince(began, ['anything']), true)
    assert.equal(marks.markedSince(marks.sequence, ['anything']), false)
  })
})
