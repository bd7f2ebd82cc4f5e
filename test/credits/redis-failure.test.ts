import { once } from 'node:events'
import { after, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ManualClock } from '../../src/lib/clock.ts'
import { ApiError } from '../../src/errors/index.ts'
import { createCreditStore, CreditsUnavailableError, MemoryCreditStore, RedisCreditStore, type StoreLogger } from '../../src/credits/index.ts'
import { connectTestRedis, deleteKeys, redisSkip, unreachableRedis, uniquePrefix } from './redis-test-connection.ts'

const MINUTE = Date.UTC(2026, 10, 22, 10, 0, 0)

function recordingLogger (): StoreLogger & { lines: Array<[level: string, msg: string]> } {
  const lines: Array<[string, string]> = []
  return { lines, warn: (_obj, msg) => { lines.push(['warn', msg]) }, info: (_obj, msg) => { lines.push(['info', msg]) } }
}

describe('RedisCreditStore while Redis is unreachable', () => {
  const redis = unreachableRedis()
  after(() => { redis.disconnect() })
  const clock = new ManualClock(MINUTE + 15_000)

  it('serves by default: allowed, marked degraded, with an estimate of what is left', async () => {
    const store = new RedisCreditStore({ redis, clock })
    assert.deepEqual(await store.charge('account:a', 5, 1000), { allowed: true, remaining: 995, resetSeconds: 45, degraded: true })
    assert.deepEqual(await store.peek('account:a', 1000), { remaining: 1000, resetSeconds: 45, degraded: true })
  })

  it('logs the outage once, not once per request', async () => {
    const logger = recordingLogger()
    const store = new RedisCreditStore({ redis, clock, logger })
    for (let i = 0; i < 5; i++) await store.charge('account:a', 1, 10)
    assert.deepEqual(logger.lines, [['warn', 'credits store (Redis) unreachable: serving requests without counting credits']])
  })

  it('refuses with a 503 ApiError carrying Retry-After when configured to', async () => {
    const store = new RedisCreditStore({ redis, clock, failureMode: 'refuse' })
    for (const attempt of [() => store.charge('account:a', 1, 10), () => store.peek('account:a', 10)]) {
      await assert.rejects(attempt(), (error: unknown) => {
        assert.ok(error instanceof CreditsUnavailableError)
        assert.ok(error instanceof ApiError)
        assert.equal(error.status, 503)
        assert.equal(error.code, 'dependency_unavailable')
        assert.deepEqual(error.headers, { 'Retry-After': '5' })
        assert.doesNotMatch(error.message, /redis|ECONN|writeable/i, 'no internals in the message')
        assert.ok(error.cause instanceof Error)
        return true
      })
    }
  })
})

describe('RedisCreditStore recovering from an outage', { skip: redisSkip }, () => {
  it('logs the recovery and counts again', async () => {
    const redis = await connectTestRedis()
    const prefix = uniquePrefix('recover')
    const logger = recordingLogger()
    const store = new RedisCreditStore({ redis, clock: new ManualClock(MINUTE + 15_000), keyPrefix: prefix, logger })
    try {
      const ended = once(redis, 'end')
      redis.disconnect()
      await ended
      assert.equal((await store.charge('account:a', 1, 10)).degraded, true)
      await redis.connect()
      assert.deepEqual(await store.charge('account:a', 1, 10), { allowed: true, remaining: 9, resetSeconds: 45, degraded: false })
      assert.deepEqual(logger.lines.map(([level]) => level), ['warn', 'info'])
    } finally {
      await deleteKeys(redis, prefix)
      redis.disconnect()
    }
  })
})

describe('createCreditStore', () => {
  it('picks in-process counters without a Redis connection and Redis with one', () => {
    assert.ok(createCreditStore() instanceof MemoryCreditStore)
    const redis = unreachableRedis()
    try {
      assert.ok(createCreditStore({ redis }) instanceof RedisCreditStore)
    } finally {
      redis.disconnect()
    }
  })
})
