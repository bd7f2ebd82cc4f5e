import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ReadCache } from '../../src/db/index.ts'

const ROW = { id: 'r1', account_id: 'acc', name: 'A label', parent_id: null, created_at: '2026-11-22T10:00:00.000Z', position: 1.5 }
const entry = (id: string, value: unknown = { ...ROW, id }): { accountId: string, table: string, id: string, value: unknown } => ({ accountId: 'acc', table: 'labels', id, value })

describe('ReadCache', () => {
  it('counts what a value holds, nested arrays and objects included', () => {
    const flat = new ReadCache(1 << 20)
    flat.set('k', flat.epoch, entry('r1'))
    const nested = new ReadCache(1 << 20)
    const pairs = Array.from({ length: 20 }, (_, i) => [`name${i}`, 'v'.repeat(100)])
    nested.set('k', nested.epoch, entry('r1', { ...ROW, pairs }))
    // Twenty pairs of two strings, one of a hundred characters: well over 20 × 100 bytes more.
    assert.ok(nested.bytes - flat.bytes > 20 * 100 + 20 * 48, `${nested.bytes} vs ${flat.bytes}`)
    // Two-byte characters count twice.
    const wide = new ReadCache(1 << 20)
    wide.set('k', wide.epoch, entry('r1', { ...ROW, name: 'é'.repeat(1000) }))
    const narrow = new ReadCache(1 << 20)
    narrow.set('k', narrow.epoch, entry('r1', { ...ROW, name: 'e'.repeat(1000) }))
    const twoByte = new ReadCache(1 << 20)
    twoByte.set('k', twoByte.epoch, entry('r1', { ...ROW, name: '→'.repeat(1000) }))
    assert.equal(wide.bytes, narrow.bytes)
    assert.ok(twoByte.bytes - narrow.bytes >= 1000, `${twoByte.bytes} vs ${narrow.bytes}`)
  })

  it('stores an entry offered for its second sight only the second time: keys seen once take no place', () => {
    const cache = new ReadCache(1 << 20)
    for (let i = 0; i < 1000; i++) cache.set(`GET /v2/labels?expires=${i}`, cache.epoch, entry('r1'), { secondSight: true })
    assert.equal(cache.size, 0)
    assert.equal(cache.bytes, 0)
    cache.set('GET /v2/labels?expires=999', cache.epoch, entry('r1'), { secondSight: true })
    assert.notEqual(cache.get('GET /v2/labels?expires=999'), undefined)
    assert.equal(cache.size, 1)
    // Rows read by id are stored at once.
    cache.set('labels:r2', cache.epoch, entry('r2'))
    assert.notEqual(cache.get('labels:r2'), undefined)
  })

  it('stays within its bound, dropping the least recently used first', () => {
    const probe = new ReadCache(1 << 20)
    probe.set('row-0', probe.epoch, entry('row-0'))
    const one = probe.bytes
    const cache = new ReadCache(one * 10)
    for (let i = 0; i < 100; i++) {
      cache.set(`row-${i}`, cache.epoch, entry(`row-${i}`))
      cache.get('row-0')
    }
    assert.ok(cache.bytes <= one * 10)
    assert.ok(cache.size >= 9 && cache.size <= 10, String(cache.size))
    assert.notEqual(cache.get('row-0'), undefined)
    assert.equal(cache.get('row-50'), undefined)
    assert.notEqual(cache.get('row-99'), undefined)
  })

  it('does not store a read that began before its account changed, nor after too many accounts changed to remember', () => {
    const cache = new ReadCache(1 << 20)
    const began = cache.epoch
    cache.forget({ accountId: 'acc', tables: { labels: ['other'] } })
    cache.set('k', began, entry('r1'))
    assert.equal(cache.get('k'), undefined)
    const later = cache.epoch
    cache.forget({ accountId: 'another', tables: { labels: ['x'] } })
    cache.set('k', later, entry('r1'))
    assert.notEqual(cache.get('k'), undefined)
    // Past the accounts it remembers, an old read is refused whatever its account.
    const old = cache.epoch
    for (let i = 0; i < 10_001; i++) cache.forget({ accountId: `a${i}`, tables: {} })
    cache.set('k2', old, entry('r2'))
    assert.equal(cache.get('k2'), undefined)
  })
})
