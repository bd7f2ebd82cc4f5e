import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import { systemClock, type Clock } from '../lib/clock.ts'
import { isFresh, type CacheableResponse, type CachedResponse, type ResponseCache, type StoreOptions, UNTAGGED } from './response-cache.ts'

/** The part of a pino logger the cache uses. */
export interface CacheLogger {
  warn: (obj: object, msg: string) => void
  info: (obj: object, msg: string) => void
}

export interface RedisResponseCacheOptions {
  /** The caller owns the connection; `enableOfflineQueue: false` keeps an outage from stalling requests. */
  redis: Redis
  ttlSeconds: number
  /** Answers larger than this are served but not stored. Default 1 MiB. */
  maxEntryBytes?: number
  clock?: Clock
  /** Default `reelhouse:cdn:`. */
  keyPrefix?: string
  logger?: CacheLogger
}

const NEWLINE = 0x0a

/** Deletes every entry named in the tag sets KEYS, and the sets: one round trip, atomic. */
const PURGE_SCRIPT = `
for _, tag in ipairs(KEYS) do
  local members = redis.call('SMEMBERS', tag)
  for i = 1, #members, 500 do
    redis.call('DEL', unpack(members, i, math.min(i + 499, #members)))
  end
  redis.call('DEL', tag)
end
return 0`

/**
 * Shared cache for several cdn processes (REDIS_URL). One string per URL holds a JSON line with the
 * status, headers and stored-at time, then the body bytes: a hit is one GET, a store one SET … PX,
 * and the body is never re-encoded. Keys are a SHA-256 of the URL so that long signed URLs make short,
 * fixed-size keys. Freshness is checked against the injected clock as well as Redis' own expiry, so
 * every process agrees with its clock and tests need no sleeps.
 */
export class RedisResponseCache implements ResponseCache {
  private readonly redis: Redis
  private readonly ttlSeconds: number
  private readonly maxEntryBytes: number
  private readonly clock: Clock
  private readonly keyPrefix: string
  private readonly logger: CacheLogger | undefined
  private failing = false

  constructor (options: RedisResponseCacheOptions) {
    this.redis = options.redis
    this.ttlSeconds = options.ttlSeconds
    this.maxEntryBytes = options.maxEntryBytes ?? 1024 * 1024
    this.clock = options.clock ?? systemClock
    this.keyPrefix = options.keyPrefix ?? 'reelhouse:cdn:'
    this.logger = options.logger
  }

  async get (key: string): Promise<CachedResponse | undefined> {
    let stored: Buffer | null
    try {
      stored = await this.redis.getBuffer(this.keyFor(key))
    } catch (error) {
      this.failed(error)
      return undefined
    }
    this.succeeded()
    if (stored === null) return undefined
    const entry = decode(stored)
    return entry !== undefined && isFresh(entry.storedAt, this.clock.now(), this.ttlSeconds) ? entry : undefined
  }

  /**
   * One SET … PX, and the key added to a set per purge tag whose expiry follows its newest member; in
   * one MULTI, so an entry never exists without its tags.
   */
  async set (key: string, response: CacheableResponse, options: StoreOptions = UNTAGGED): Promise<CachedResponse | undefined> {
    if (response.status !== 200 || response.body.length > this.maxEntryBytes) return undefined
    const entry: CachedResponse = { ...response, storedAt: this.clock.now() }
    const ttl = this.ttlSeconds * 1000
    const entryKey = this.keyFor(key)
    try {
      const multi = this.redis.multi().set(entryKey, encode(entry), 'PX', ttl)
      for (const tag of options.tags) multi.sadd(this.tagKey(tag), entryKey).pexpire(this.tagKey(tag), ttl)
      const results = await multi.exec()
      const failed = results?.find(([error]) => error !== null)?.[0]
      if (failed !== undefined) throw failed
    } catch (error) {
      this.failed(error)
      return undefined
    }
    this.succeeded()
    return entry
  }

  async purge (tags: readonly string[]): Promise<void> {
    if (tags.length === 0) return
    try {
      await this.redis.eval(PURGE_SCRIPT, tags.length, ...tags.map((tag) => this.tagKey(tag)))
    } catch (error) {
      this.failed(error)
      throw error
    }
    this.succeeded()
  }

  /** Every entry under the prefix, with SCAN (never KEYS, which blocks Redis). */
  async clear (): Promise<void> {
    let cursor = '0'
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.keyPrefix}*`, 'COUNT', 500)
      if (keys.length > 0) await this.redis.unlink(...keys)
      cursor = next
    } while (cursor !== '0')
  }

  private tagKey (tag: string): string {
    return `${this.keyPrefix}tag:${tag}`
  }

  private keyFor (url: string): string {
    return this.keyPrefix + createHash('sha256').update(url).digest('base64url')
  }

  /** A cache outage only costs hits; log its start and end, not every call. */
  private failed (error: unknown): void {
    if (this.failing) return
    this.failing = true
    this.logger?.warn({ err: error }, 'response cache (Redis) unreachable: answering without the cache')
  }

  private succeeded (): void {
    if (!this.failing) return
    this.failing = false
    this.logger?.info({}, 'response cache (Redis) reachable again')
  }
}

interface StoredMeta { s: number, h: Record<string, string>, t: number, a?: string }

/** `{"s":200,"h":{…},"t":…,"a":…}\n<body>`; JSON.stringify never emits a raw newline, so the first one ends the meta. */
export function encode (entry: CachedResponse): Buffer {
  const meta: StoredMeta = { s: entry.status, h: entry.headers, t: entry.storedAt, a: entry.accountId }
  return Buffer.concat([Buffer.from(JSON.stringify(meta) + '\n'), entry.body])
}

/** Undefined for anything not written by encode (another version, a stray key): a miss, not an error. */
export function decode (stored: Buffer): CachedResponse | undefined {
  const end = stored.indexOf(NEWLINE)
  if (end === -1) return undefined
  let meta: StoredMeta
  try {
    meta = JSON.parse(stored.subarray(0, end).toString('utf8')) as StoredMeta
  } catch {
    return undefined
  }
  if (typeof meta.s !== 'number' || typeof meta.t !== 'number' || typeof meta.h !== 'object' || meta.h === null) return undefined
  const entry: CachedResponse = { status: meta.s, headers: meta.h, body: stored.subarray(end + 1), storedAt: meta.t }
  if (typeof meta.a === 'string') entry.accountId = meta.a
  return entry
}
