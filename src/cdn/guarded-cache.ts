import { RecentMarks } from '../lib/recent-marks.ts'
import type { CacheableResponse, CachedResponse, ResponseCache, StoreOptions } from './response-cache.ts'

/**
 * Purged tags remembered: enough for every purge during any request's life under heavy writes (some
 * tens of tags a second); a request older than the oldest remembered purge just does not store its answer.
 */
const REMEMBERED_TAGS = 10_000

/**
 * The response cache as the invalidation bus allows it to be used (docs/credits-and-cache.md,
 * "Freshness"): while the bus is down nothing is served from it or stored in it, since a purge may
 * have been missed; and an answer is not stored when one of its tags was purged after its request
 * began, since it may show what the purge removed.
 */
export class GuardedResponseCache implements ResponseCache {
  serving = true
  readonly inner: ResponseCache
  /** The sequence number of each tag's last purge. */
  readonly #purges = new RecentMarks(REMEMBERED_TAGS)

  readonly getNow?: (key: string) => CachedResponse | undefined

  constructor (inner: ResponseCache) {
    this.inner = inner
    const getNow = inner.getNow?.bind(inner)
    if (getNow !== undefined) this.getNow = (key) => this.serving ? getNow(key) : undefined
  }

  /** Read at the start of a request and handed back as `StoreOptions.epoch` when it stores its answer. */
  get epoch (): number {
    return this.#purges.sequence
  }

  async get (key: string): Promise<CachedResponse | undefined> {
    return this.serving ? await this.inner.get(key) : undefined
  }

  async set (key: string, response: CacheableResponse, options?: StoreOptions): Promise<CachedResponse | undefined> {
    if (!this.serving) return undefined
    if (options?.epoch !== undefined && this.#purges.markedSince(options.epoch, options.tags)) return undefined
    return await this.inner.set(key, response, options)
  }

  async purge (tags: readonly string[]): Promise<boolean> {
    this.#purges.mark(tags)
    return await this.inner.purge(tags)
  }

  async clear (): Promise<void> {
    this.#purges.markAll()
    await this.inner.clear()
  }
}
