import { after, before, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { Redis } from 'ioredis'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  ageSeconds, cachedHeaders, createResponseCache, entryBytes, freshnessHeaders, isFresh,
  MemoryResponseCache, RedisResponseCache, type CacheableResponse, type ResponseCache
} from '../../src/cdn/index.ts'
import { connectTestRedis, deleteKeys, redisSkip, unreachableRedis, uniquePrefix } from '../credits/redis-test-connection.ts'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts'
import { connectRedis } from '../../src/credits/redis-connection.ts'

const START = Date.UTC(2026, 10, 22, 10, 0, 0)
const TTL = 300
const URL_A = '/v2/labels?api_key=k.1&expires=1893456000&limit=5&signature=abc%2Bdef'

function answer (body: string | Buffer, status = 200): CacheableResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.isBuffer(body) ? body : Buffer.from(body) }
}

/** The behaviour every response cache must have; run on each implementation below. */
function responseCacheContract (makeCache: (clock: ManualClock) => ResponseCache): void {
  let clock: ManualClock
  let cache: ResponseCache
  beforeEach(() => {
    clock = new ManualClock(START)
    cache = makeCache(clock)
  })

  it('misses a URL never stored', async () => {
    assert.equal(await cache.get(URL_A), undefined)
  })

  it('gives back a stored 200 with its status, headers, exact body bytes and stored-at time', async () => {
    const body = Buffer.from([0x7b, 0x7d, 0x0a, 0x00, 0xff, 0xe2, 0x80, 0xa8]) // newline, NUL and invalid UTF-8 survive
    const stored = await cache.set(URL_A, answer(body))
    assert.deepEqual(stored, { ...answer(body), storedAt: START })
    clock.advance(12_345)
    const hit = await cache.get(URL_A)
    assert.ok(hit !== undefined)
    assert.equal(hit.status, 200)
    assert.deepEqual(hit.headers, { 'content-type': 'application/json; charset=utf-8' })
    assert.ok(hit.body.equals(body))
    assert.equal(hit.storedAt, START)
    assert.equal(ageSeconds(hit.storedAt, clock.now()), 12)
  })

  it('never stores an error', async () => {
    assert.equal(await cache.set(URL_A, answer('{"status":404}', 404)), undefined)
    assert.equal(await cache.get(URL_A), undefined)
  })

  it('serves the entry stale until the TTL has passed by the injected clock, then drops it', async () => {
    await cache.set(URL_A, answer('{"v":1}'))
    clock.set(START + TTL * 1000 - 1)
    assert.equal((await cache.get(URL_A))?.body.toString(), '{"v":1}')
    clock.set(START + TTL * 1000)
    assert.equal(await cache.get(URL_A), undefined)
  })

  it('keys by the full URL: another query string is another entry', async () => {
    await cache.set(URL_A, answer('{"v":1}'))
    assert.equal(await cache.get(URL_A.replace('limit=5', 'limit=6')), undefined)
    assert.equal(await cache.get(URL_A + '&callback=cb'), undefined)
  })

  it('replaces an entry stored again, restarting its age', async () => {
    await cache.set(URL_A, answer('{"v":1}'))
    clock.advance(200_000)
    await cache.set(URL_A, answer('{"v":2}'))
    clock.advance(200_000)
    const hit = await cache.get(URL_A)
    assert.equal(hit?.body.toString(), '{"v":2}')
    assert.equal(hit?.storedAt, START + 200_000)
  })
}

describe('MemoryResponseCache', () => {
  responseCacheContract((clock) => new MemoryResponseCache({ ttlSeconds: TTL, maxBytes: 1024 * 1024, clock }))

  const url = (n: number): string => `/v2/assets/${n}?api_key=k&expires=1&signature=s`
  const oneKiB = answer('x'.repeat(1024))
  const size = entryBytes(url(1), { ...oneKiB, storedAt: 0 })

  it('evicts the least recently used entries once the byte bound is reached', async () => {
    const cache = new MemoryResponseCache({ ttlSeconds: TTL, maxBytes: size * 3, maxEntryBytes: size, clock: new ManualClock(START) })
    for (const n of [1, 2, 3]) await cache.set(url(n), oneKiB)
    assert.equal(cache.bytes, size * 3)
    await cache.get(url(1)) // 1 is now more recent than 2
    await cache.set(url(4), oneKiB)
    assert.equal(await cache.get(url(2)), undefined, 'the least recently used went first')
    for (const n of [1, 3, 4]) assert.ok(await cache.get(url(n)) !== undefined, `entry ${n} kept`)
    assert.equal(cache.size, 3)
    assert.ok(cache.bytes <= size * 3)
  })

  it('counts bytes, not entries: one large answer pushes out several small ones', async () => {
    const cache = new MemoryResponseCache({ ttlSeconds: TTL, maxBytes: size * 4, maxEntryBytes: size * 4, clock: new ManualClock(START) })
    for (const n of [1, 2, 3, 4]) await cache.set(url(n), oneKiB)
    assert.ok(await cache.set(url(5), answer('y'.repeat(2048))) !== undefined)
    assert.equal(cache.size, 3)
    assert.equal(await cache.get(url(1)), undefined)
    assert.equal(await cache.get(url(2)), undefined)
  })

  it('serves but does not store an answer above the entry bound, keeping the rest of the cache', async () => {
    const cache = new MemoryResponseCache({ ttlSeconds: TTL, maxBytes: size * 8, clock: new ManualClock(START) })
    await cache.set(url(1), oneKiB)
    assert.equal(await cache.set(url(2), answer('z'.repeat(size * 2))), undefined, 'more than an eighth of the cache')
    assert.ok(await cache.get(url(1)) !== undefined)
  })
})

describe('RedisResponseCache', { skip: redisSkip }, () => {
  let redis: Redis
  const prefix = uniquePrefix('cdn')
  before(async () => { redis = await connectTestRedis() })
  after(async () => {
    await deleteKeys(redis, prefix)
    redis.disconnect()
  })

  /** The entries' keys under a prefix (not the generation's). */
  const entryKeys = async (keyPrefix: string): Promise<string[]> => (await redis.keys(`${keyPrefix}*`)).filter((key) => !key.endsWith(':generation'))

  describe('contract', () => {
    let run = 0
    responseCacheContract((clock) => new RedisResponseCache({ redis, ttlSeconds: TTL, clock, keyPrefix: `${prefix}${++run}:` }))
  })

  it('shares entries between connections, stored with a PX expiry of the TTL', async () => {
    const other = await connectTestRedis()
    try {
      const clock = new ManualClock(START)
      const keyPrefix = `${prefix}shared:`
      await new RedisResponseCache({ redis, ttlSeconds: TTL, clock, keyPrefix }).set(URL_A, answer('{"shared":true}'))
      const hit = await new RedisResponseCache({ redis: other, ttlSeconds: TTL, clock, keyPrefix }).get(URL_A)
      assert.equal(hit?.body.toString(), '{"shared":true}')
      const [key] = await entryKeys(keyPrefix)
      const ttl = await redis.pttl(key)
      assert.ok(ttl > (TTL - 60) * 1000 && ttl <= TTL * 1000, `PTTL ${ttl}`)
    } finally {
      other.disconnect()
    }
  })

  it('treats a value it did not write as a miss', async () => {
    const keyPrefix = `${prefix}stray:`
    const cache = new RedisResponseCache({ redis, ttlSeconds: TTL, clock: new ManualClock(START), keyPrefix })
    await cache.set(URL_A, answer('{}'))
    const [key] = await entryKeys(keyPrefix)
    await redis.set(key, 'not a cache entry')
    assert.equal(await cache.get(URL_A), undefined)
  })
})

describe('RedisResponseCache after purges lost while Redis was unreachable', { skip: redisSkip }, () => {
  const keyPrefix = uniquePrefix('cdn-lost')
  let proxy: TcpProxy
  /** Process A reaches Redis through a proxy the test cuts; process B directly. */
  let cut: Redis
  let direct: Redis
  let a: RedisResponseCache
  let b: RedisResponseCache
  const messages: string[] = []
  const logger = { warn: (_o: object, msg: string) => { messages.push(msg) }, info: (_o: object, msg: string) => { messages.push(msg) } }
  const URL_B = '/v2/players?api_key=k.1&expires=1893456000&signature=x'
  const URL_C = '/v2/assets?api_key=k.1&expires=1893456000&signature=y'
  before(async () => {
    proxy = await startTcpProxy(process.env.TEST_REDIS_URL as string)
    // Made as the app makes it: a command on a cut link fails within a second.
    cut = await connectRedis(proxy.through(process.env.TEST_REDIS_URL as string), logger)
    direct = await connectTestRedis()
    const clock = new ManualClock(START)
    a = new RedisResponseCache({ redis: cut, ttlSeconds: TTL, clock, keyPrefix, logger })
    b = new RedisResponseCache({ redis: direct, ttlSeconds: TTL, clock, keyPrefix })
  })
  after(async () => {
    cut.disconnect()
    await proxy.close()
    await deleteKeys(direct, keyPrefix)
    direct.disconnect()
  })
  const ready = async (redis: Redis): Promise<void> => {
    for (let i = 0; i < 200 && redis.status !== 'ready'; i++) await new Promise((resolve) => setTimeout(resolve, 25))
  }

  it('covers a lost purge with a new generation: what any process stored before is a miss everywhere, what is stored after is a hit', async () => {
    const tags = { tags: ['s:user-1'] }
    await b.set(URL_A, answer('{"stored":"by B"}'), tags)
    await a.set(URL_B, answer('{"stored":"by A"}'), tags)
    await b.set(URL_C, answer('{"untagged":true}'))
    assert.equal((await a.get(URL_A))?.body.toString(), '{"stored":"by B"}')
    assert.equal((await b.get(URL_B))?.body.toString(), '{"stored":"by A"}')

    proxy.cut()
    assert.equal(await a.purge(['s:user-1']), false)
    assert.equal(await a.get(URL_C), undefined)
    // B did not lose the purge, but A's debt covers what B stored: B serves it only until A is back.
    proxy.restore()
    await ready(cut)
    assert.equal(await a.get(URL_A), undefined)
    for (const url of [URL_A, URL_B, URL_C]) {
      assert.equal(await b.get(url), undefined, `${url} stored before the lost purge`)
      assert.equal(await a.get(url), undefined)
    }
    await b.set(URL_C, answer('{"stored":"again"}'))
    assert.equal((await a.get(URL_C))?.body.toString(), '{"stored":"again"}')
    assert.deepEqual(messages, [
      'response cache (Redis) unreachable: answering without the cache',
      'response cache (Redis) reachable again: 1 purges were lost meanwhile, so no entry stored before is served (a new generation)'
    ])
  })

  it('makes up for a lost purge as soon as Redis is back, without a lookup of its own (a process that only writes)', async () => {
    await b.set(URL_A, answer('{"stored":"before"}'))
    assert.notEqual(await b.get(URL_A), undefined)
    proxy.cut()
    assert.equal(await a.purge(['s:user-2']), false)
    proxy.restore()
    for (let i = 0; i < 200 && await b.get(URL_A) !== undefined; i++) await new Promise((resolve) => setTimeout(resolve, 25))
    assert.equal(await b.get(URL_A), undefined)
  })

  it('clears for every process with one new generation', async () => {
    await b.set(URL_A, answer('{}'))
    assert.notEqual(await a.get(URL_A), undefined)
    await a.clear()
    assert.equal(await b.get(URL_A), undefined)
  })

  it('treats an entry of no generation, or a missing generation key, as a miss', async () => {
    await b.set(URL_A, answer('{}'))
    await direct.del(`${keyPrefix}generation`)
    assert.equal(await b.get(URL_A), undefined)
    await b.set(URL_A, answer('{}'))
    assert.notEqual(await a.get(URL_A), undefined)
  })
})

describe('RedisResponseCache while Redis is unreachable', () => {
  it('answers misses and skips stores instead of failing, logging the outage once', async () => {
    const redis = unreachableRedis()
    const warnings: string[] = []
    const logger = { warn: (_o: object, msg: string) => { warnings.push(msg) }, info: () => {} }
    try {
      const cache = new RedisResponseCache({ redis, ttlSeconds: TTL, clock: new ManualClock(START), logger })
      assert.equal(await cache.set(URL_A, answer('{}')), undefined)
      assert.equal(await cache.get(URL_A), undefined)
      assert.deepEqual(warnings, ['response cache (Redis) unreachable: answering without the cache'])
    } finally {
      redis.disconnect()
    }
  })
})

describe('cache helpers', () => {
  it('pick only the headers that describe the body', () => {
    assert.deepEqual(cachedHeaders({ 'Content-Type': 'application/json; charset=utf-8', 'x-request-id': 'r', 'X-RateLimit-Credits': 5, etag: '"1"' }),
      { 'content-type': 'application/json; charset=utf-8', etag: '"1"' })
  })

  it('compute freshness, Age and Cache-Control', () => {
    assert.equal(isFresh(START, START + 299_999, 300), true)
    assert.equal(isFresh(START, START + 300_000, 300), false)
    assert.equal(ageSeconds(START, START + 1_999), 1)
    assert.equal(ageSeconds(START, START - 5_000), 0)
    assert.deepEqual(freshnessHeaders(300, 12, true), { 'cache-control': 'public, max-age=300', age: '12', 'x-cache': 'HIT' })
    assert.deepEqual(freshnessHeaders(300, 0, false), { 'cache-control': 'public, max-age=300', age: '0', 'x-cache': 'MISS' })
  })

  it('select the in-process cache without Redis and the shared one with it', () => {
    assert.ok(createResponseCache({ ttlSeconds: TTL, maxBytes: 1024 }).inner instanceof MemoryResponseCache)
    const redis = unreachableRedis()
    try {
      assert.ok(createResponseCache({ ttlSeconds: TTL, maxBytes: 1024, redis }).inner instanceof RedisResponseCache)
    } finally {
      redis.disconnect()
    }
  })
})

describe('the guarded cache', () => {
  it('does not store an answer one of whose tags was purged after its request began', async () => {
    const cache = createResponseCache({ ttlSeconds: TTL, maxBytes: 1 << 20 })
    const began = cache.epoch
    await cache.purge(['label:1'])
    assert.equal(await cache.set(URL_A, answer('[]'), { tags: ['label:1'], epoch: began }), undefined)
    assert.notEqual(await cache.set(URL_A, answer('[]'), { tags: ['label:2'], epoch: began }), undefined)
    assert.notEqual(await cache.set(URL_A, answer('[]'), { tags: ['label:1'], epoch: cache.epoch }), undefined)
  })

  it('remembers a bounded number of purged tags; a request older than a forgotten purge stores nothing', async () => {
    const cache = createResponseCache({ ttlSeconds: TTL, maxBytes: 1 << 20 })
    const began = cache.epoch
    for (let i = 0; i < 10_001; i++) await cache.purge([`asset:${i}`])
    assert.equal(await cache.set(URL_A, answer('[]'), { tags: ['label:1'], epoch: began }), undefined)
    const recent = cache.epoch
    await cache.purge(['asset:x'])
    assert.notEqual(await cache.set(URL_A, answer('[]'), { tags: ['label:1'], epoch: recent }), undefined)
  })
})
