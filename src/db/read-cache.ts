import type { Kysely } from 'kysely'
import { LRUCache } from 'lru-cache'
import { heapBytes } from '../lib/heap-bytes.ts'
import { RecentMarks } from '../lib/recent-marks.ts'
import { SeenBefore } from '../lib/seen-before.ts'
import type { Invalidation } from './changes.ts'

interface Entry {
  accountId: string
  table: string
  id: string
  value: unknown
  /** Bytes of copies made from the value and kept as long as it stays (its answer's JSON): see `chargeDerived`. */
  derivedBytes?: number
}

/** The cache and key each stored object value lives under, for `chargeDerived`. */
const homes = new WeakMap<object, { cache: ReadCache, key: string }>()

/**
 * What an entry costs beyond its key and value, measured (docs/deployment.md, "Memory"): the entry
 * object, lru-cache's map slot and links, the account index's slot, the key's concatenation nodes.
 */
const ENTRY_OVERHEAD_BYTES = 120

/** Accounts whose last invalidation is remembered; a read begun before the oldest forgotten one is not stored. */
const REMEMBERED_ACCOUNTS = 10_000

/** Keys offered once and remembered (64 KiB), for entries admitted on their second sight. */
const SIGHTED_KEYS = 16_384

export interface StoreOptions {
  /**
   * Store only a key offered before: for keys mostly seen once (verified URLs, when clients sign each
   * request anew), which would otherwise fill the cache with entries never read again and push out the
   * rows that are.
   */
  secondSight?: boolean
}

/**
 * Rows the hot path reads by key (a credential, a resource by id), kept in this process and forgotten
 * when the invalidation bus says they changed (docs/credits-and-cache.md, "Freshness"). Bounded by
 * bytes, least recently used first out. While the bus is down (`serving` false) nothing is read from it
 * or stored in it; when it comes back the cache starts empty.
 */
export class ReadCache {
  readonly #lru: LRUCache<string, Entry>
  /** Keys by account, so an invalidation visits only its account's entries. */
  readonly #byAccount = new Map<string, Set<string>>()
  #serving = true
  /** Each account's last invalidation: a read that began before one of its account's must not store what it read. */
  readonly #forgotten = new RecentMarks(REMEMBERED_ACCOUNTS)
  readonly #sighted = new SeenBefore(SIGHTED_KEYS)
  hits = 0
  misses = 0

  constructor (maxBytes: number) {
    this.#lru = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
      sizeCalculation: (entry, key) => entryBytes(key, entry.value) + (entry.derivedBytes ?? 0),
      dispose: (entry, key) => {
        const keys = this.#byAccount.get(entry.accountId)
        keys?.delete(key)
        if (keys?.size === 0) this.#byAccount.delete(entry.accountId)
      }
    })
  }

  get serving (): boolean { return this.#serving }
  get epoch (): number { return this.#forgotten.sequence }
  get bytes (): number { return this.#lru.calculatedSize }
  get size (): number { return this.#lru.size }

  /** The cached value, or undefined (absent, or the cache is not serving). */
  get (key: string): unknown {
    if (!this.#serving) return undefined
    const entry = this.#lru.get(key)
    if (entry === undefined) { this.misses += 1; return undefined }
    this.hits += 1
    return entry.value
  }

  /** Stores a value read at `epoch`, unless an invalidation came in since (or the cache is not serving). */
  set (key: string, epoch: number, entry: Entry, options?: StoreOptions): void {
    if (!this.#serving || this.#forgotten.markedSince(epoch, [entry.accountId])) return
    if (options?.secondSight === true && !this.#sighted.offer(key)) return
    this.#lru.set(key, entry)
    if (!this.#lru.has(key)) return
    if (typeof entry.value === 'object' && entry.value !== null) homes.set(entry.value, { cache: this, key })
    let keys = this.#byAccount.get(entry.accountId)
    if (keys === undefined) this.#byAccount.set(entry.accountId, keys = new Set())
    keys.add(key)
  }

  /**
   * Counts `bytes` of a copy made from a stored value against the budget, with that value's entry: false
   * when the value is no longer stored (the copy must then not be kept).
   */
  chargeDerived (value: object, key: string, bytes: number): boolean {
    const entry = this.#lru.peek(key)
    if (entry === undefined || entry.value !== value) return false
    // A new entry object, so lru-cache measures it again (it may then leave, if it no longer fits); the
    // same key, value and account, so nothing is disposed.
    const next: Entry = { ...entry, derivedBytes: (entry.derivedBytes ?? 0) + bytes }
    this.#lru.set(key, next, { noDisposeOnSet: true })
    return this.#lru.peek(key) === next
  }

  /** Forgets every entry the change can have made stale. */
  forget (change: Invalidation): void {
    this.#forgotten.mark([change.accountId])
    const keys = this.#byAccount.get(change.accountId)
    if (keys === undefined) return
    for (const key of [...keys]) {
      const entry = this.#lru.peek(key)
      if (entry === undefined) continue
      const ids = change.tables[entry.table]
      if (change.everything === true || (ids !== undefined && (ids.includes('*') || ids.includes(entry.id)))) this.#lru.delete(key)
    }
  }

  /** Bus down: stop serving and drop everything. Bus back: serve again, from empty. */
  setServing (serving: boolean): void {
    this.#forgotten.markAll()
    this.#sighted.clear()
    this.#lru.clear()
    this.#byAccount.clear()
    this.#serving = serving
  }
}

function entryBytes (key: string, value: unknown): number {
  return ENTRY_OVERHEAD_BYTES + heapBytes(key) + heapBytes(value)
}

/**
 * Counts a copy made from a value the read cache holds (the JSON of the answer made from a cached row,
 * src/http/serialised-once.ts) in the cache's byte budget, with the value's entry. False when the value
 * is not, or no longer, held: the caller then does not keep its copy.
 */
export function chargeDerived (value: object, bytes: number): boolean {
  const home = homes.get(value)
  return home !== undefined && home.cache.chargeDerived(value, home.key, bytes)
}

const caches = new WeakMap<Kysely<any>, ReadCache>()

/**
 * Gives the connection's reads by key a cache (the process that runs the bus does, src/bus); the first
 * one stays when several contexts share a connection. Returns how to take it off again.
 */
export function attachReadCache (db: Kysely<any>, cache: ReadCache): () => void {
  if (caches.has(db)) return () => {}
  caches.set(db, cache)
  return () => { if (caches.get(db) === cache) caches.delete(db) }
}

/**
 * The connection's read cache for a read on `runner`, if it may use one: only reads on the connection
 * itself are cached; inside a transaction (`runner` is not `db`) a write's read-merge-write must see the
 * row as it is. The caller looks up, reads on a miss, and stores with the epoch it read before reading.
 * @example const cache = readCacheFor(db, trx); const hit = cache?.get(key) ?? … ; cache?.set(key, epoch, entry)
 */
export function readCacheFor (db: Kysely<any>, runner: Kysely<any>): ReadCache | undefined {
  return runner === db ? caches.get(db) : undefined
}
