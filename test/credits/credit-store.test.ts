import { after, before, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Redis } from 'ioredis'
import { ManualClock } from '../../src/lib/clock.ts'
import { MemoryCreditStore, RedisCreditStore, type CreditStore } from '../../src/credits/index.ts'
import { connectTestRedis, deleteKeys, redisSkip, uniquePrefix } from './redis-test-connection.ts'

const MINUTE = Date.UTC(2026, 10, 22, 10, 0, 0)

interface Harness { store: CreditStore, clock: ManualClock }

/** The behaviour every credit store must have; run on each implementation below. */
function creditStoreContract (makeStore: (clock: ManualClock) => CreditStore): void {
  let h: Harness
  beforeEach(() => {
    const clock = new ManualClock(MINUTE + 15_000)
    h = { clock, store: makeStore(clock) }
  })

  it('starts every key at its full allowance', async () => {
    assert.deepEqual(await h.store.peek('account:a', 10), { remaining: 10, resetSeconds: 45, degraded: false })
  })

  it('charges the cost and reports what is left and when it resets', async () => {
    assert.deepEqual(await h.store.charge('account:a', 1, 10), { allowed: true, remaining: 9, resetSeconds: 45, degraded: false })
    assert.deepEqual(await h.store.charge('account:a', 5, 10), { allowed: true, remaining: 4, resetSeconds: 45, degraded: false })
    assert.equal((await h.store.peek('account:a', 10)).remaining, 4)
  })

  it('refuses a cost larger than what is left without consuming anything', async () => {
    await h.store.charge('account:a', 8, 10)
    assert.deepEqual(await h.store.charge('account:a', 5, 10), { allowed: false, remaining: 2, resetSeconds: 45, degraded: false })
    assert.equal((await h.store.peek('account:a', 10)).remaining, 2)
    assert.deepEqual(await h.store.charge('account:a', 2, 10), { allowed: true, remaining: 0, resetSeconds: 45, degraded: false })
    assert.equal((await h.store.charge('account:a', 1, 10)).allowed, false)
    assert.equal((await h.store.peek('account:a', 10)).remaining, 0)
  })

  it('always refuses a cost above the whole allowance', async () => {
    assert.deepEqual(await h.store.charge('account:a', 5, 4), { allowed: false, remaining: 4, resetSeconds: 45, degraded: false })
  })

  it('lets zero-cost requests read the balance without changing it, even when it is empty', async () => {
    await h.store.charge('account:a', 3, 10)
    assert.deepEqual(await h.store.charge('account:a', 0, 10), { allowed: true, remaining: 7, resetSeconds: 45, degraded: false })
    await h.store.charge('account:a', 7, 10)
    assert.deepEqual(await h.store.charge('account:a', 0, 10), { allowed: true, remaining: 0, resetSeconds: 45, degraded: false })
    assert.equal((await h.store.peek('account:a', 10)).remaining, 0)
  })

  it('keeps each key independent', async () => {
    await h.store.charge('account:a', 10, 10)
    assert.equal((await h.store.charge('account:a', 1, 10)).allowed, false)
    assert.deepEqual(await h.store.charge('account:b', 1, 10), { allowed: true, remaining: 9, resetSeconds: 45, degraded: false })
    assert.equal((await h.store.peek('client:203.0.113.9', 10)).remaining, 10)
  })

  it('keeps the count within a window and resets it at the next wall-clock minute', async () => {
    await h.store.charge('account:a', 10, 10)
    h.clock.set(MINUTE + 59_999)
    assert.deepEqual(await h.store.charge('account:a', 1, 10), { allowed: false, remaining: 0, resetSeconds: 1, degraded: false })
    h.clock.set(MINUTE + 60_000)
    assert.deepEqual(await h.store.peek('account:a', 10), { remaining: 10, resetSeconds: 60, degraded: false })
    assert.deepEqual(await h.store.charge('account:a', 1, 10), { allowed: true, remaining: 9, resetSeconds: 60, degraded: false })
  })

  it('uses the allowance given on each call, so a lowered allowance takes effect at once', async () => {
    await h.store.charge('account:a', 6, 10)
    assert.deepEqual(await h.store.charge('account:a', 1, 5), { allowed: false, remaining: 0, resetSeconds: 45, degraded: false })
    assert.equal((await h.store.charge('account:a', 1, 20)).remaining, 13)
  })

  it('rejects a negative or fractional cost as a programming error', async () => {
    await assert.rejects(h.store.charge('account:a', -1, 10), RangeError)
    await assert.rejects(h.store.charge('account:a', 1.5, 10), RangeError)
  })
}

describe('MemoryCreditStore', () => {
  creditStoreContract((clock) => new MemoryCreditStore(clock))
})

describe('RedisCreditStore', { skip: redisSkip }, () => {
  let redis: Redis
  let other: Redis
  const prefix = uniquePrefix('credits')

  before(async () => {
    redis = await connectTestRedis()
    other = await connectTestRedis()
  })
  after(async () => {
    await deleteKeys(redis, prefix)
    redis.disconnect()
    other.disconnect()
  })

  describe('contract', () => {
    let run = 0
    // A prefix per test: each test starts from empty counters without flushing anything shared.
    creditStoreContract((clock) => new RedisCreditStore({ redis, clock, keyPrefix: `${prefix}${++run}:` }))
  })

  it('stores one key per counter and window, expiring a minute after the window ends', async () => {
    const clock = new ManualClock(MINUTE + 15_000)
    const store = new RedisCreditStore({ redis, clock, keyPrefix: `${prefix}ttl:` })
    await store.charge('account:a', 1, 10)
    const key = `${prefix}ttl:account:a:${MINUTE / 60_000}`
    assert.equal(await redis.get(key), '1')
    const ttl = await redis.pttl(key)
    assert.ok(ttl > 60_000 && ttl <= 105_000, `PTTL ${ttl}`)
    await store.charge('account:a', 0, 10)
    await store.charge('account:a', 50, 10)
    assert.equal(await redis.get(key), '1', 'zero cost and refusals write nothing')
    assert.equal(await redis.exists(`${prefix}ttl:account:untouched:${MINUTE / 60_000}`), 0)
    await store.charge('account:untouched', 0, 10)
    assert.equal(await redis.exists(`${prefix}ttl:account:untouched:${MINUTE / 60_000}`), 0, 'a zero-cost read creates no key')
  })

  it('allows exactly the allowance when two connections charge concurrently', async () => {
    const allowance = 50
    const clock = new ManualClock(MINUTE + 15_000)
    const keyPrefix = `${prefix}race:`
    const stores = [new RedisCreditStore({ redis, clock, keyPrefix }), new RedisCreditStore({ redis: other, clock, keyPrefix })]
    const results = await Promise.all(Array.from({ length: 3 * allowance }, (_, i) => stores[i % 2].charge('account:a', 1, allowance)))
    assert.equal(results.filter((r) => r.allowed).length, allowance)
    assert.equal(results.filter((r) => !r.allowed).length, 2 * allowance)
    assert.deepEqual(await stores[0].peek('account:a', allowance), { remaining: 0, resetSeconds: 45, degraded: false })
  })

  it('allows exactly what fits when mixed costs race', async () => {
    const clock = new ManualClock(MINUTE + 15_000)
    const keyPrefix = `${prefix}mixed:`
    const stores = [new RedisCreditStore({ redis, clock, keyPrefix }), new RedisCreditStore({ redis: other, clock, keyPrefix })]
    const costs = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? 5 : i % 3 === 1 ? 2 : 1))
    const results = await Promise.all(costs.map((cost, i) => stores[i % 2].charge('account:a', cost, 40)))
    const spent = results.reduce((sum, r, i) => sum + (r.allowed ? costs[i] : 0), 0)
    assert.ok(spent <= 40)
    assert.equal(Number(await redis.get(`${keyPrefix}account:a:${MINUTE / 60_000}`)), spent)
  })
})
