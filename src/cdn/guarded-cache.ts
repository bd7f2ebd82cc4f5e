import type { CacheableResponse, CachedResponse, ResponseCache, StoreOptions } from './response-cache.ts'

/** Past this many remembered tags, the memory of purges is reset to "everything was just purged". */
const MAX_REMEMBERED_TAGS = 100_000

/**
 * The response cache as the invalidation bus allows it to be used (docs/credits-and-cache.md,
 * "Freshness"): while the bus is down nothing is served from it or stored in it, since a purge may
 * have been missed; and an answer is not stored when one of its tags was purged after its request
 * began, since it may show what the purge removed.
 */
export class GuardedResponseCache implements ResponseCache {
  serving = true
  readonly inner: ResponseCache
  #sequence = 0
  /** The sequence number of each tag's last purge. */
  readonly #purgedAt = new Map<string, number>()
  #clearedAt = 0

  constructor (inner: ResponseCache) {
    this.inner = inner
  }

  /** Read at the start of a request and handed back as `StoreOptions.epoch` when it stores its answer. */
  get epoch (): number {
    return this.#sequence
  }

  async get (key: string): Promise<CachedResponse | undefined> {
    return this.serving ? await this.inner.get(key) : undefined
  }

  async set (key: string, response: CacheableResponse, options?: StoreOptions): Promise<CachedResponse | undefined> {
    if (!this.serving) return undefined
    if (options?.epoch !== undefined && this.purgedSince(options.epoch, options.tags)) return undefined
    return await this.inner.set(key, response, options)
  }

  async purge (tags: readonly string[]): Promise<void> {
    this.#sequence += 1
    if (this.#purgedAt.size + tags.length > MAX_REMEMBERED_TAGS) {
      this.#purgedAt.clear()
      this.#clearedAt = this.#sequence
    }
    for (const tag of tags) this.#purgedAt.set(tag, this.#sequence)
    await this.inner.purge(tags)
  }

  async clear (): Promise<void> {
    this.#sequence += 1
    this.#clearedAt = this.#sequence
    this.#purgedAt.clear()
    await this.inner.clear()
  }

  private purgedSince (epoch: number, tags: readonly string[]): boolean {
    if (this.#clearedAt > epoch) return true
    for (const tag of tags) if ((this.#purgedAt.get(tag) ?? 0) > epoch) return true
    return false
  }
}
