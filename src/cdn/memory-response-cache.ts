import { LRUCache } from 'lru-cache'
import { systemClock, type Clock } from '../lib/clock.ts'
import { isFresh, type CacheableResponse, type CachedResponse, type ResponseCache } from './response-cache.ts'

export interface MemoryResponseCacheOptions {
  ttlSeconds: number
  /** Bound on the bytes held (CDN_CACHE_BYTES); least recently used entries go first. */
  maxBytes: number
  /**
   * Largest single entry, default an eighth of maxBytes: one huge answer must not flush the whole
   * cache. Larger answers are served but not stored.
   */
  maxEntryBytes?: number
  clock?: Clock
}

/** Rough per-entry overhead of the object, the map slot and the list links, so tiny entries still count. */
const ENTRY_OVERHEAD_BYTES = 128

/** Bytes an entry holds: the body, plus the key and header strings (two bytes a character in V8 at worst). */
export function entryBytes (key: string, entry: CachedResponse): number {
  let bytes = ENTRY_OVERHEAD_BYTES + entry.body.length + key.length * 2
  for (const name in entry.headers) bytes += (name.length + entry.headers[name].length) * 2
  return bytes
}

/**
 * In-process cache (the embedded default), bounded by bytes. Expiry is checked against the injected
 * clock on read rather than with lru-cache's own TTL, which reads its own time source and caches it;
 * expired entries are dropped when read and otherwise age out through the LRU bound.
 */
export class MemoryResponseCache implements ResponseCache {
  private readonly lru: LRUCache<string, CachedResponse>
  private readonly ttlSeconds: number
  private readonly clock: Clock

  constructor (options: MemoryResponseCacheOptions) {
    this.ttlSeconds = options.ttlSeconds
    this.clock = options.clock ?? systemClock
    this.lru = new LRUCache<string, CachedResponse>({
      maxSize: options.maxBytes,
      maxEntrySize: options.maxEntryBytes ?? Math.max(1, Math.floor(options.maxBytes / 8)),
      sizeCalculation: (entry, key) => entryBytes(key, entry)
    })
  }

  async get (key: string): Promise<CachedResponse | undefined> {
    const entry = this.lru.get(key)
    if (entry === undefined) return undefined
    if (isFresh(entry.storedAt, this.clock.now(), this.ttlSeconds)) return entry
    this.lru.delete(key)
    return undefined
  }

  async set (key: string, response: CacheableResponse): Promise<CachedResponse | undefined> {
    if (response.status !== 200) return undefined
    const entry: CachedResponse = { ...response, storedAt: this.clock.now() }
    this.lru.set(key, entry)
    // lru-cache refuses an entry above maxEntrySize silently; report it as not stored.
    return this.lru.has(key) ? entry : undefined
  }

  /** Bytes currently held, as counted by entryBytes (for metrics and tests). */
  get bytes (): number {
    return this.lru.calculatedSize
  }

  get size (): number {
    return this.lru.size
  }
}
