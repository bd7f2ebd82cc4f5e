import type { Kysely } from 'kysely'
import { LRUCache } from 'lru-cache'
import type { Invalidation } from './changes.ts'

interface Entry { accountId: string, table: string, id: string, value: unknown }

/** Rough cost of an entry beyond its strings (object, map slot, index links). */
const ENTRY_OVERHEAD_BYTES = 160

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
  /** Bumped by every invalidation: a read that began before one of its account's must not store what it read. */
  #epoch = 0
  /** The epoch of each account's last invalidation, and of the last drop of everything. */
  readonly #forgottenAt = new Map<string, number>()
  #clearedAt = 0
  hits = 0
  misses = 0

  constructor (maxBytes: number) {
    this.#lru = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
      sizeCalculation: (entry, key) => entryBytes(key, entry.value),
      dispose: (entry, key) => {
        const keys = this.#byAccount.get(entry.accountId)
        keys?.delete(key)
        if (keys?.size === 0) this.#byAccount.delete(entry.accountId)
      }
    })
  }

  get serving (): boolean { return this.#serving }
  get epoch (): number { return this.#epoch }
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
  set (key: string, epoch: number, entry: Entry): void {
    if (!this.#serving || this.#clearedAt > epoch || (this.#forgottenAt.get(entry.accountId) ?? 0) > epoch) return
    this.#lru.set(key, entry)
    if (!this.#lru.has(key)) return
    let keys = this.#byAccount.get(entry.accountId)
    if (keys === undefined) this.#byAccount.set(entry.accountId, keys = new Set())
    keys.add(key)
  }

  /** Forgets every entry the change can have made stale. */
  forget (change: Invalidation): void {
    this.#epoch += 1
    if (this.#forgottenAt.size >= 100_000) {
      this.#forgottenAt.clear()
      this.#clearedAt = this.#epoch
    }
    this.#forgottenAt.set(change.accountId, this.#epoch)
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
    this.#epoch += 1
    this.#clearedAt = this.#epoch
    this.#forgottenAt.clear()
    this.#lru.clear()
    this.#byAccount.clear()
    this.#serving = serving
  }
}

function entryBytes (key: string, value: unknown): number {
  let bytes = ENTRY_OVERHEAD_BYTES + key.length * 2
  if (value !== null && typeof value === 'object') {
    for (const name in value) {
      const field = (value as Record<string, unknown>)[name]
      bytes += name.length * 2 + (typeof field === 'string' ? field.length * 2 : 16)
    }
  }
  return bytes
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
