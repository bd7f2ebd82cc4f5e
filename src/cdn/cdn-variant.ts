import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../errors/index.ts'
import type { Clock } from '../lib/clock.ts'
import { parseQueryPairs, type QueryPairs } from '../signing/index.ts'
import { callbackParameter, isValidCallback, JSONP_HEADERS, wrapJsonp } from './jsonp.ts'
import { ageSeconds, cachedHeaders, freshnessHeaders, type CachedResponse, type ResponseCache } from './response-cache.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The stored answer this request is served from (cached variant). */
    cacheHit: CachedResponse | undefined
  }
  interface FastifyContextConfig {
    /** `false`: the cached variant never stores this route's answers (they change on every call). */
    cdnCache?: boolean
    /** Served on the cached variant with its own methods, uncached (analytics collection: POST and its CORS preflight). */
    cdnAnyMethod?: boolean
  }
}

export interface CdnVariantDeps {
  cache: ResponseCache
  /** Shows the balance of the account a hit was first served to, without charging it. */
  peekAccount: (reply: FastifyReply, accountId: string) => Promise<void>
  clock: Clock
  ttlSeconds: number
}

const ALLOW = 'GET, HEAD'

/**
 * The cached variant's rules (product.md §7, docs/credits-and-cache.md) as two hooks around the
 * common pipeline. onRequest: GET and HEAD only, and a fresh stored answer is sent before any
 * signature or database work. onSend: a signed GET's 200 is stored as bare JSON by its full URL;
 * JSONP is wrapped per request, so an error (sent as a JSONP 200) is never stored.
 */
export function registerCdnVariant (app: FastifyInstance, deps: CdnVariantDeps): void {
  app.addHook('onRequest', async (request, reply) => {
    // Players post events to whichever listener they know (product.md §9); nothing there is cached.
    if (request.routeOptions.config.cdnAnyMethod === true) return
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new ApiError('method_not_allowed', `The cached endpoint serves GET and HEAD only, not ${request.method}.`, undefined, { Allow: ALLOW })
    }
    const url = request.raw.url ?? '/'
    // Only signed answers are stored, and signed routes live under /v2: /health never costs a lookup.
    if (!url.startsWith('/v2/')) return
    const entry = await deps.cache.get(url)
    if (entry?.accountId === undefined) return
    const pairs = storedQuery(url)
    // Past its `expires` the URL goes through the full check, which answers the 401.
    if (pairs === undefined || expired(pairs, deps.clock.now())) return
    request.queryPairs = pairs
    request.cacheHit = entry
    await deps.peekAccount(reply, entry.accountId)
    // As text: node:http then writes head and body in one write() instead of a writev of two buffers.
    reply.code(200).headers(entry.headers).send(entry.body.toString('utf8'))
    return reply
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const hit = request.cacheHit
    if (hit !== undefined) {
      reply.headers(freshnessHeaders(deps.ttlSeconds, ageSeconds(hit.storedAt, deps.clock.now()), true))
    } else if (reply.statusCode === 200 && request.auth !== undefined && request.routeOptions.config.cdnCache !== false) {
      // Only a GET stores: a HEAD may carry a HEAD signature, and its URL must not unlock the GET body.
      if (request.method === 'GET' && isBytes(payload)) {
        await deps.cache.set(request.raw.url ?? '/', {
          status: 200, headers: cachedHeaders(reply.getHeaders()), body: Buffer.from(payload), accountId: request.auth.accountId
        })
      }
      reply.headers(freshnessHeaders(deps.ttlSeconds, 0, false))
    } else {
      // Errors and per-call answers must not be kept downstream either (JSONP even turns errors into 200s).
      reply.header('cache-control', 'no-store').header('x-cache', 'MISS')
    }
    return jsonp(request, reply, payload)
  })
}

/**
 * `name(<json>)` with status 200 and the real status inside (product.md §7). Only JSON answers are
 * wrapped; the callback name was checked before authentication, and a bad one gets a plain 400.
 */
function jsonp (request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const callback = callbackParameter(request.queryPairs)
  if (callback === undefined || !isValidCallback(callback) || !isBytes(payload)) return payload
  if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload
  const status = reply.statusCode
  reply.code(200).headers(JSONP_HEADERS)
  return wrapJsonp(callback, status, typeof payload === 'string' ? payload : payload.toString('utf8'))
}

function isBytes (payload: unknown): payload is string | Buffer {
  return typeof payload === 'string' || Buffer.isBuffer(payload)
}

function storedQuery (url: string): QueryPairs | undefined {
  const q = url.indexOf('?')
  try {
    return parseQueryPairs(q === -1 ? '' : url.slice(q + 1))
  } catch {
    return undefined
  }
}

/** The authenticator's rule (interface-spec §5): refused once `expires` is before now, in seconds. */
function expired (pairs: QueryPairs, nowMs: number): boolean {
  const expires = pairs.find(([key]) => key === 'expires')?.[1]
  return expires === undefined || !/^\d{1,30}$/.test(expires) || Number(expires) < Math.floor(nowMs / 1000)
}
