import type { CacheableResponse, CachedResponse, ResponseCache, StoreOptions } from './response-cache.ts'

/**
 * The response cache as the invalidation bus allows it to be used (docs/credits-and-cache.md,
 * "Freshness"): while the bus is down nothing is served from it or stored in it, since a purge may
 * have been missed; and an answer whose request began before a purge is not stored, since it may
 * show what the purge removed.
 */
export class GuardedResponseCache implements ResponseCache {
  serving = true
  readonly inner: ResponseCache

  constructor (inner: ResponseCache) {
    this.inner = inner
  }

  get epoch (): number {
    return this.inner.epoch
  }

  async get (key: string): Promise<CachedResponse | undefined> {
    return this.serving ? await this.inner.get(key) : undefined
  }

  async set (key: string, response: CacheableResponse, options?: StoreOptions): Promise<CachedResponse | undefined> {
    if (!this.serving || (options?.epoch !== undefined && options.epoch !== this.inner.epoch)) return undefined
    return await this.inner.set(key, response, options)
  }

  async purge (tags: readonly string[]): Promise<void> {
    await this.inner.purge(tags)
  }

  async clear (): Promise<void> {
    await this.inner.clear()
  }
}
