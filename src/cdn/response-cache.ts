/**
 * The cached variant's store of answers (docs/credits-and-cache.md): a 200 answer kept by its full URL for
 * CDN_TTL_SECONDS, served stale within that time. Only 200s are stored; errors never are.
 */

/** An answer as the cache keeps it. */
export interface CachedResponse {
  /** Always 200 today; stored so a reader never has to assume it. */
  status: number
  /** Lower-case names; only the headers that describe the body (see CACHED_HEADERS). */
  headers: Record<string, string>
  /** The bare JSON bytes, before any JSONP wrapping (the callback is applied per request). */
  body: Buffer
  /** When it was stored, in ms by the cache's injected clock. */
  storedAt: number
  /**
   * The account the answer was charged to. A hit shows that account's balance in the credit
   * headers without looking the credential up again (docs/credits-and-cache.md).
   */
  accountId?: string
}

export type CacheableResponse = Omit<CachedResponse, 'storedAt'>

/**
 * `key` is the full request URL as received (path and raw query string, `signature` and `expires`
 * included, as the cached variant promises). Entries expire by the injected clock.
 * A shared cache that cannot be reached behaves as a miss (get) or a skipped store (set): the
 * cache must never fail a request.
 */
export interface ResponseCache {
  /** The entry, or undefined when absent or older than the TTL. */
  get: (key: string) => Promise<CachedResponse | undefined>
  /** Stores a 200 answer stamped with the clock's now; returns the entry, or undefined when not stored (not a 200, too big, store down). */
  set: (key: string, response: CacheableResponse) => Promise<CachedResponse | undefined>
}

/**
 * Headers replayed on a hit. Everything else is per request (`X-Request-Id`, credits headers) or
 * is written by the cached variant itself (`Cache-Control`, `Age`, `X-Cache`).
 */
export const CACHED_HEADERS = ['content-type', 'content-language', 'etag', 'last-modified'] as const

/** Picks CACHED_HEADERS out of a reply's headers (any case), as strings. */
export function cachedHeaders (headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const picked: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if ((CACHED_HEADERS as readonly string[]).includes(lower) && value !== undefined) picked[lower] = String(value)
  }
  return picked
}

/** Whether an entry stored at `storedAt` is still served at `now`: strictly younger than the TTL. */
export function isFresh (storedAt: number, now: number, ttlSeconds: number): boolean {
  return now - storedAt < ttlSeconds * 1000
}

/** The `Age` header value (RFC 9111 §5.1): whole seconds since stored, never negative. */
export function ageSeconds (storedAt: number, now: number): number {
  return Math.max(0, Math.floor((now - storedAt) / 1000))
}

/**
 * Freshness headers of a cached-variant 200. `max-age` is the full TTL on hits too: with `Age`
 * beside it, a downstream cache keeps the copy for the time left (RFC 9111 §4.2.3), as CDNs do.
 * @see https://www.rfc-editor.org/rfc/rfc9111#section-4.2.3
 */
export function freshnessHeaders (ttlSeconds: number, age: number, hit: boolean): Record<string, string> {
  return { 'cache-control': `public, max-age=${ttlSeconds}`, age: String(age), 'x-cache': hit ? 'HIT' : 'MISS' }
}
