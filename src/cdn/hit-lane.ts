import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { redactUrl } from '../http/logging.ts'
import type { Clock } from '../lib/clock.ts'
import { expiresSeconds, parseQueryPairs } from '../signing/index.ts'
import { callbackParameter, isValidCallback, JSONP_HEADERS, wrapJsonp } from './jsonp.ts'
import { ageSeconds, matchesIfNoneMatch, representationEtag, type CachedResponse, type ResponseCache } from './response-cache.ts'

export interface HitLaneDeps {
  cache: ResponseCache
  clock: Clock
  /** CDN_CLIENT_MAX_AGE, for the Cache-Control of a hit. */
  clientMaxAge: number
  /** The credit headers showing an account's balance without charging it (none when credits are off). */
  balanceHeaders: (accountId: string) => Promise<Record<string, string>>
  /** The same at once, as name, value…, when the balance is in this process; else undefined. */
  balanceNow: (accountId: string) => string[] | undefined
  /** The request id of a request (the client's X-Request-Id when sane). */
  requestId: (request: IncomingMessage) => string
}

/**
 * Answers a request from the cache when it is a hit, before any framework work; says (or resolves to)
 * whether it answered. Anything else (a miss, an expired URL, a bad callback, a cache that fails) is left
 * to the full pipeline, which answers it as it answers every request. It answers at once, with no promise,
 * when the cache and the balance are both in this process (the embedded default); it may throw then.
 */
export type HitLane = (request: IncomingMessage, response: ServerResponse, log?: FastifyBaseLogger, requestId?: string) => boolean | Promise<boolean>

const INFO_OR_MORE = new Set(['info', 'debug', 'trace'])

/** Requests the server's front door has already looked up (and found no hit it could serve). */
const lookedUpRequests = new WeakSet<IncomingMessage>()

/** Marks a request the front door looked up, so the pipeline does not look a miss up twice. */
export function markLookedUp (request: IncomingMessage): void {
  lookedUpRequests.add(request)
}

/** Whether the front door has already looked this request up (and found no hit it could serve). */
export function lookedUp (request: IncomingMessage): boolean {
  return lookedUpRequests.has(request)
}

/** What a hit on one entry sends, worked out once per entry: the URL (its key) and the body never change. */
interface PreparedHit {
  /** The URL's `expires` in seconds; NaN when it is not a plain integer (the full check answers those). */
  expires: number
  /** False when the URL names a callback that is not a valid name (the full pipeline answers its 400). */
  servable: boolean
  /** The stored headers, JSONP's when the URL names a callback, and the content length, as name, value, name, value… */
  headers: string[]
  /**
   * What goes before the stored bytes and after them: `name(` and `)` for JSONP, nothing for bare JSON.
   * The stored Buffer itself is sent, never a copy: a copy kept per entry would double what the cache
   * holds without its count knowing. Undefined when the JSONP body must be rewritten (below).
   */
  wrap: readonly [string, string] | undefined
  /** The ETag of what is sent (JSONP's names the callback). */
  etag: string | undefined
}

/**
 * The cached variant's hit (docs/credits-and-cache.md): the stored bare JSON with its
 * stored headers, the account's balance (not charged), `Age` and `X-Cache: HIT`, wrapped per URL
 * when it names a JSONP callback. It is served in front of the framework's router, which is why a
 * hit costs a fraction of a miss (docs/benchmarks.md, scenario 2).
 */
export function createHitLane (deps: HitLaneDeps): HitLane {
  const cacheControl = `public, max-age=${deps.clientMaxAge}`
  // Keyed by the entry object: the in-process cache hands out the same one until it is replaced or expires.
  const prepared = new WeakMap<CachedResponse, PreparedHit>()
  const prepare = (entry: CachedResponse, url: string): PreparedHit => {
    let hit = prepared.get(entry)
    if (hit === undefined) {
      hit = prepareHit(entry, url)
      prepared.set(entry, hit)
    }
    return hit
  }

  const getNow = deps.cache.getNow

  return (request, response, log, requestId) => {
    const started = log !== undefined && INFO_OR_MORE.has(log.level) ? performance.now() : undefined
    const method = request.method
    const url = request.url ?? '/'
    // Only signed GET answers are stored, and signed routes live under /v2: /health never costs a lookup.
    if ((method !== 'GET' && method !== 'HEAD') || !url.startsWith('/v2/')) return false
    const asked: Asked = { request, response, url, log, requestId, started }
    if (getNow === undefined) return deps.cache.get(url).then((entry) => found(asked, entry))
    return found(asked, getNow(url))
  }

  function found (asked: Asked, entry: CachedResponse | undefined): boolean | Promise<boolean> {
    if (entry?.accountId === undefined) return false
    const hit = prepare(entry, asked.url)
    const now = deps.clock.now()
    // Past its `expires` the URL goes through the full check, which answers the 401.
    if (!hit.servable || !(hit.expires >= Math.floor(now / 1000))) return false
    const balance = deps.balanceNow(entry.accountId)
    if (balance !== undefined) return send(asked, entry, hit, now, balance)
    return deps.balanceHeaders(entry.accountId).then((headers) => {
      const { response } = asked
      return response.headersSent || response.destroyed || send(asked, entry, hit, now, Object.entries(headers).flat())
    })
  }

  function send ({ request, response, url, log, requestId, started }: Asked, entry: CachedResponse, hit: PreparedHit, now: number, balance: readonly string[]): true {
    const method = request.method
    const id = requestId ?? deps.requestId(request)
    // A browser revalidating what it holds gets a 304 when the entry is the one it has (its ETag).
    const unchanged = hit.etag !== undefined && matchesIfNoneMatch(request.headers['if-none-match'], hit.etag)
    const headers = ['x-request-id', id, ...(unchanged ? ['etag', hit.etag as string] : hit.headers), 'cache-control', cacheControl, 'age', String(ageSeconds(entry.storedAt, now)), 'x-cache', 'HIT', ...balance]
    // JSON holding U+2028 or U+2029, escaped for JSONP: rare enough to wrap per hit rather than keep.
    const rewritten = hit.wrap === undefined && !unchanged
      ? wrapJsonp(callbackParameter(parseQueryPairs(url.slice(url.indexOf('?') + 1))) as string, 200, entry.body.toString('utf8'))
      : undefined
    if (rewritten !== undefined) headers.push('content-length', String(Buffer.byteLength(rewritten)))
    response.writeHead(unchanged ? 304 : 200, headers)
    if (method === 'HEAD' || unchanged) response.end()
    else if (hit.wrap === undefined) response.end(rewritten)
    else if (hit.wrap === NO_WRAP) response.end(entry.body)
    else {
      // Corked: the head, the wrapping and the stored bytes leave in one write.
      response.cork()
      response.write(hit.wrap[0])
      response.write(entry.body)
      response.end(hit.wrap[1])
    }
    if (log !== undefined && started !== undefined) {
      log.info({ reqId: id, req: { method, url: redactUrl(url) }, res: { statusCode: 200 }, responseTime: performance.now() - started }, 'request completed')
    }
    return true
  }
}

/** One request the lane looks at, as it was asked. */
interface Asked {
  request: IncomingMessage
  response: ServerResponse
  url: string
  log: FastifyBaseLogger | undefined
  requestId: string | undefined
  /** When it began (performance.now), for its log line; undefined when no line is written. */
  started: number | undefined
}

function prepareHit (entry: CachedResponse, url: string): PreparedHit {
  const q = url.indexOf('?')
  let pairs
  try {
    pairs = parseQueryPairs(q === -1 ? '' : url.slice(q + 1))
  } catch {
    return { expires: Number.NaN, servable: false, headers: [], wrap: NO_WRAP, etag: undefined }
  }
  const callback = callbackParameter(pairs)
  const servable = callback === undefined || isValidCallback(callback)
  const stored = { ...entry.headers }
  const jsonp = callback !== undefined && servable && (stored['content-type'] ?? '').includes('json')
  let wrap: readonly [string, string] | undefined = NO_WRAP
  if (jsonp) {
    Object.assign(stored, JSONP_HEADERS)
    wrap = hasLineTerminator(entry.body) ? undefined : [`${callback}(`, ')']
  }
  if (stored.etag !== undefined) stored.etag = representationEtag(stored.etag, callback !== undefined && servable ? callback : undefined)
  if (wrap !== undefined) stored['content-length'] = String(Buffer.byteLength(wrap[0]) + entry.body.length + Buffer.byteLength(wrap[1]))
  return {
    // The authenticator's rule, so that the full check answers whatever the lane leaves to it.
    expires: expiresSeconds(pairs.find(([key]) => key === 'expires')?.[1]) ?? Number.NaN,
    servable,
    headers: Object.entries(stored).flat(),
    wrap,
    etag: stored.etag
  }
}

const NO_WRAP = ['', ''] as const

/** Whether UTF-8 bytes hold U+2028 or U+2029 (E2 80 A8, E2 80 A9), which JSONP must escape. */
function hasLineTerminator (body: Buffer): boolean {
  for (let at = body.indexOf(0xe2); at !== -1 && at + 2 < body.length; at = body.indexOf(0xe2, at + 1)) {
    if (body[at + 1] === 0x80 && (body[at + 2] === 0xa8 || body[at + 2] === 0xa9)) return true
  }
  return false
}
