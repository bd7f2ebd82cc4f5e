import { createHash } from 'node:crypto'

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

/** How an answer is stored: the purge tags it answers to (src/cdn/purge-tags.ts). */
export interface StoreOptions {
  tags: readonly string[]
  /** The guarded cache's `epoch` when the request began: a purge of one of `tags` since then means the answer may be stale, so it is not stored. */
  epoch?: number
}

export const UNTAGGED: StoreOptions = { tags: [] }

/**
 * `key` is the full request URL as received (path and raw query string, `signature` and `expires`
 * included, as the cached variant promises). Entries expire by the injected clock.
 * A shared cache that cannot be reached behaves as a miss (get) or a skipped store (set): the
 * cache must never fail a request.
 */
export interface ResponseCache {
  /** The entry, or undefined when absent or older than the TTL. */
  get: (key: string) => Promise<CachedResponse | undefined>
  /** The same as `get`, answered at once: only a cache that keeps its entries in this process has it (the hit lane's path without a promise). */
  getNow?: (key: string) => CachedResponse | undefined
  /** Stores a 200 answer stamped with the clock's now; returns the entry, or undefined when not stored (not a 200, too big, store down). */
  set: (key: string, response: CacheableResponse, options?: StoreOptions) => Promise<CachedResponse | undefined>
  /**
   * Drops every entry stored with one of `tags`. False when a shared cache could not be reached: it
   * then serves nothing stored before until it has made up for the lost purge.
   */
  purge: (tags: readonly string[]) => Promise<boolean>
  /** Drops every entry. */
  clear: () => Promise<void>
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
 * Freshness headers of a cached-variant 200. `max-age` is CDN_CLIENT_MAX_AGE (default 0), not the TTL:
 * Reelhouse purges an entry the moment what it shows changes, and a downstream copy would outlive the
 * purge; with 0 a browser revalidates every time, and the ETag makes that a 304 when nothing changed.
 * @see https://www.rfc-editor.org/rfc/rfc9111#section-5.2.2.1
 */
export function freshnessHeaders (clientMaxAge: number, age: number, hit: boolean): Record<string, string> {
  return { 'cache-control': `public, max-age=${clientMaxAge}`, age: String(age), 'x-cache': hit ? 'HIT' : 'MISS' }
}

/** A strong ETag for the bare JSON: the first 128 bits of its SHA-256, base64url. */
export function bodyEtag (body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
}

/** The ETag of what is sent: the bare JSON's, or for JSONP the same with the callback name (a different body). */
export function representationEtag (etag: string, callback: string | undefined): string {
  return callback === undefined ? etag : `${etag.slice(0, -1)}.${callback}"`
}

/** Whether an `If-None-Match` header names `etag` (or is `*`): the answer is then a 304 (RFC 9110 §13.1.2, weak comparison). */
export function matchesIfNoneMatch (header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false
  const value = Array.isArray(header) ? header.join(',') : header
  if (value.trim() === '*') return true
  for (const part of value.split(',')) {
    const tag = part.trim()
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true
  }
  return false
}
