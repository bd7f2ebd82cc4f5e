import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import { systemClock, type Clock } from '../lib/clock.ts'
import { isFresh, type CacheableResponse, type CachedResponse, type ResponseCache } from './response-cache.ts'

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

  async set (key: string, response: CacheableResponse): Promise<CachedResponse | undefined> {
    if (response.status !== 200 || response.body.length > this.maxEntryBytes) return undefined
    const entry: CachedResponse = { ...response, storedAt: this.clock.now() }
    try {
      await this.redis.set(this.keyFor(key), encode(entry), 'PX', this.ttlSeconds * 1000)
    } catch (error) {
      this.failed(error)
      return undefined
    }
    this.succeeded()
    return entry
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
