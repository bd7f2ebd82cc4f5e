import { LRUCache } from 'lru-cache'
import { systemClock, type Clock } from '../lib/clock.ts'
import { heapBytes } from '../lib/heap-bytes.ts'
import { isFresh, type CacheableResponse, type CachedResponse, type ResponseCache, type StoreOptions, UNTAGGED } from './response-cache.ts'

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

/**
 * What an entry costs beyond its key, headers, tags and body, measured against V8's heap
 * (`node --expose-gc --import tsx bench/response-cache-size.ts`): the stored and entry objects, the
 * status, time and account, lru-cache's slot and links, the hit lane's prepared headers once it is hit.
 */
const ENTRY_OVERHEAD_BYTES = 720

/** Each tag's slot in the tag index (a Set entry keyed by the URL). */
const TAG_SLOT_BYTES = 48

/**
 * Bytes an entry holds: its body outside V8's heap (in memory of its own, see `ownBytes`, so its length
 * is all it holds), and on the heap its key, headers, account and tags with their index slots.
 */
export function entryBytes (key: string, entry: CachedResponse, tags: readonly string[] = []): number {
  return ENTRY_OVERHEAD_BYTES + entry.body.length + heapBytes(key) + heapBytes(entry.headers) +
    heapBytes(entry.accountId) + heapBytes(tags) + TAG_SLOT_BYTES * tags.length
}

/**
 * The body in memory of its own. A small Buffer is often a slice of a shared 8 KiB slab (Node's pool,
 * which `Buffer.from(string)` uses below 4 KiB): kept, it keeps the whole slab alive, several times the
 * bytes it shows.
 */
function ownBytes (body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length) return body
  const own = Buffer.allocUnsafeSlow(body.length)
  body.copy(own)
  return own
}

interface Stored { entry: CachedResponse, tags: readonly string[] }

/**
 * In-process cache (the embedded default), bounded by bytes. Expiry is checked against the injected
 * clock on read rather than with lru-cache's own TTL, which reads its own time source and caches it;
 * expired entries are dropped when read and otherwise age out through the LRU bound. Each entry is
 * indexed by its purge tags, so a purge visits only the entries it drops.
 */
export class MemoryResponseCache implements ResponseCache {
  private readonly lru: LRUCache<string, Stored>
  private readonly byTag = new Map<string, Set<string>>()
  private readonly ttlSeconds: number
  private readonly clock: Clock

  constructor (options: MemoryResponseCacheOptions) {
    this.ttlSeconds = options.ttlSeconds
    this.clock = options.clock ?? systemClock
    this.lru = new LRUCache<string, Stored>({
      maxSize: options.maxBytes,
      maxEntrySize: options.maxEntryBytes ?? Math.max(1, Math.floor(options.maxBytes / 8)),
      sizeCalculation: (stored, key) => entryBytes(key, stored.entry, stored.tags),
      dispose: (stored, key) => {
        for (const tag of stored.tags) {
          const keys = this.byTag.get(tag)
          keys?.delete(key)
          if (keys?.size === 0) this.byTag.delete(tag)
        }
      }
    })
  }

  async get (key: string): Promise<CachedResponse | undefined> {
    return this.getNow(key)
  }

  getNow (key: string): CachedResponse | undefined {
    const stored = this.lru.get(key)
    if (stored === undefined) return undefined
    if (isFresh(stored.entry.storedAt, this.clock.now(), this.ttlSeconds)) return stored.entry
    this.lru.delete(key)
    return undefined
  }

  async set (key: string, response: CacheableResponse, options: StoreOptions = UNTAGGED): Promise<CachedResponse | undefined> {
    if (response.status !== 200) return undefined
    const entry: CachedResponse = { ...response, body: ownBytes(response.body), storedAt: this.clock.now() }
    this.lru.set(key, { entry, tags: options.tags })
    // lru-cache refuses an entry above maxEntrySize silently; report it as not stored.
    if (!this.lru.has(key)) return undefined
    for (const tag of options.tags) {
      let keys = this.byTag.get(tag)
      if (keys === undefined) this.byTag.set(tag, keys = new Set())
      keys.add(key)
    }
    return entry
  }

  async purge (tags: readonly string[]): Promise<boolean> {
    for (const tag of tags) {
      const keys = this.byTag.get(tag)
      if (keys === undefined) continue
      for (const key of [...keys]) this.lru.delete(key)
    }
    return true
  }

  async clear (): Promise<void> {
    this.lru.clear()
    this.byTag.clear()
  }

  /** Bytes currently held, as counted by entryBytes (for metrics and tests). */
  get bytes (): number {
    return this.lru.calculatedSize
  }

  get size (): number {
    return this.lru.size
  }
}
