import { createHash, randomBytes } from 'node:crypto'
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
 * status, headers, stored-at time and generation, then the body bytes: a hit is one MGET (the
 * generation and the entry), a store one SET … PX, and the body is never re-encoded. Keys are a SHA-256
 * of the URL so that long signed URLs make short, fixed-size keys. Freshness is checked against the
 * injected clock as well as Redis' own expiry, so every process agrees with its clock and tests need
 * no sleeps.
 *
 * The generation (docs/credits-and-cache.md, "When the shared cache misses a purge"): a random token under `<prefix>generation`
 * that every entry is stored with and must equal to be served. A purge this process could not apply
 * (Redis unreachable) is owed: until it has written a new token, the process neither reads nor stores
 * entries, and once it has, every entry stored before — by any process — is a miss everywhere. A clear
 * is a new token too. Old entries are left to expire with their TTL.
 */
export class RedisResponseCache implements ResponseCache {
  private readonly redis: Redis
  private readonly ttlSeconds: number
  private readonly maxEntryBytes: number
  private readonly clock: Clock
  private readonly keyPrefix: string
  private readonly generationKey: string
  private readonly logger: CacheLogger | undefined
  private failing = false
  /** The generation last read or written by this process. */
  private generation: string | undefined
  /** Purges (and clears) owed, and how many of them a new generation written since covers. */
  private lost = 0
  private covered = 0
  /** Purges lost since the outage was logged, for the line that logs its end. */
  private lostInOutage = 0
  private renewing: Promise<boolean> | undefined
  private awaitingReady = false

  constructor (options: RedisResponseCacheOptions) {
    this.redis = options.redis
    this.ttlSeconds = options.ttlSeconds
    this.maxEntryBytes = options.maxEntryBytes ?? 1024 * 1024
    this.clock = options.clock ?? systemClock
    this.keyPrefix = options.keyPrefix ?? 'reelhouse:cdn:'
    this.generationKey = `${this.keyPrefix}generation`
    this.logger = options.logger
  }

  async get (key: string): Promise<CachedResponse | undefined> {
    if (!await this.settled()) return undefined
    let generation: Buffer | null
    let stored: Buffer | null
    try {
      [generation, stored] = await this.redis.mgetBuffer(this.generationKey, this.keyFor(key))
    } catch (error) {
      this.failed(error)
      return undefined
    }
    this.succeeded()
    if (generation === null) {
      await this.startGeneration()
      return undefined
    }
    this.generation = generation.toString()
    // A purge lost while the lookup was on its way may have been meant for this very entry.
    if (stored === null || this.owed) return undefined
    const decoded = decode(stored)
    if (decoded === undefined || decoded.generation !== this.generation) return undefined
    return isFresh(decoded.entry.storedAt, this.clock.now(), this.ttlSeconds) ? decoded.entry : undefined
  }

  /**
   * One SET … PX, and the key added to a set per purge tag whose expiry follows its newest member; in
   * one MULTI, so an entry never exists without its tags. Stored with the generation last seen: if
   * another process has written a new one since, the entry is a miss, never wrongly a hit.
   */
  async set (key: string, response: CacheableResponse, options: StoreOptions = UNTAGGED): Promise<CachedResponse | undefined> {
    if (response.status !== 200 || response.body.length > this.maxEntryBytes || this.owed) return undefined
    const generation = this.generation ?? await this.startGeneration()
    if (generation === undefined) return undefined
    const entry: CachedResponse = { ...response, storedAt: this.clock.now() }
    const ttl = this.ttlSeconds * 1000
    const entryKey = this.keyFor(key)
    try {
      const multi = this.redis.multi().set(entryKey, encode(entry, generation), 'PX', ttl)
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

  /** False when Redis could not be reached: the purge is then owed, and covered by a new generation. */
  async purge (tags: readonly string[]): Promise<boolean> {
    if (tags.length === 0) return true
    if (!await this.settled()) {
      this.lose()
      return false
    }
    try {
      await this.redis.eval(PURGE_SCRIPT, tags.length, ...tags.map((tag) => this.tagKey(tag)))
    } catch (error) {
      this.failed(error)
      this.lose()
      return false
    }
    this.succeeded()
    return true
  }

  /** A new generation: every entry stored so far becomes a miss, on every process, in one command. */
  async clear (): Promise<void> {
    this.lost += 1
    await this.settled()
  }

  private get owed (): boolean {
    return this.lost > this.covered
  }

  /** A purge not applied: made up for at once if the link is up (a slow command), else as soon as it is back. */
  private lose (): void {
    this.lost += 1
    this.lostInOutage += 1
    if (this.redis.status === 'ready') void this.settled()
    else this.renewWhenReady()
  }

  /** Whether nothing is owed, writing a new generation first when something is. */
  private async settled (): Promise<boolean> {
    if (!this.owed) return true
    this.renewing ??= this.renew().finally(() => { this.renewing = undefined })
    return await this.renewing
  }

  private async renew (): Promise<boolean> {
    const covering = this.lost
    const generation = randomBytes(12).toString('base64url')
    try {
      await this.redis.set(this.generationKey, generation)
    } catch (error) {
      this.failed(error)
      this.renewWhenReady()
      return false
    }
    this.generation = generation
    this.covered = covering
    this.succeeded()
    return !this.owed
  }

  /** A process that only writes (no lookups to pay its debt on) pays it as soon as Redis is back. */
  private renewWhenReady (): void {
    if (this.awaitingReady) return
    this.awaitingReady = true
    this.redis.once('ready', () => {
      this.awaitingReady = false
      void this.settled()
    })
  }

  /** The generation in Redis; a new one when there is none (first use, or the key was lost with Redis' data). */
  private async startGeneration (): Promise<string | undefined> {
    try {
      await this.redis.set(this.generationKey, randomBytes(12).toString('base64url'), 'NX')
      this.generation = (await this.redis.get(this.generationKey)) ?? undefined
    } catch (error) {
      this.failed(error)
      return undefined
    }
    return this.generation
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
    this.lostInOutage = 0
    this.logger?.warn({ err: error }, 'response cache (Redis) unreachable: answering without the cache')
  }

  private succeeded (): void {
    if (!this.failing) return
    this.failing = false
    const lost = this.lostInOutage
    this.logger?.info({ lost_purges: lost }, lost === 0
      ? 'response cache (Redis) reachable again'
      : `response cache (Redis) reachable again: ${lost} purges were lost meanwhile, so no entry stored before is served (a new generation)`)
  }
}

interface StoredMeta { s: number, h: Record<string, string>, t: number, a?: string, g?: string }

/** `{"s":200,"h":{…},"t":…,"a":…,"g":…}\n<body>`; JSON.stringify never emits a raw newline, so the first one ends the meta. */
export function encode (entry: CachedResponse, generation: string): Buffer {
  const meta: StoredMeta = { s: entry.status, h: entry.headers, t: entry.storedAt, a: entry.accountId, g: generation }
  return Buffer.concat([Buffer.from(JSON.stringify(meta) + '\n'), entry.body])
}

/** Undefined for anything not written by encode (another version, a stray key): a miss, not an error. */
export function decode (stored: Buffer): { entry: CachedResponse, generation: string | undefined } | undefined {
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
  return { entry, generation: typeof meta.g === 'string' ? meta.g : undefined }
}
