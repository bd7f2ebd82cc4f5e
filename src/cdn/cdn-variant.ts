import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../errors/index.ts'
import type { Pipeline } from '../http/pipeline/index.ts'
import { lookedUp, type HitLane } from './hit-lane.ts'
import { callbackParameter, isValidCallback, JSONP_HEADERS, wrapJsonp } from './jsonp.ts'
import { answerTags } from './purge-tags.ts'
import type { GuardedResponseCache } from './guarded-cache.ts'
import { bodyEtag, cachedHeaders, freshnessHeaders, matchesIfNoneMatch, representationEtag } from './response-cache.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the cached variant never stores this route's answers (they change on every call). */
    cdnCache?: boolean
    /** Served on the cached variant with its own methods, uncached (analytics collection: POST and its CORS preflight). */
    cdnAnyMethod?: boolean
  }
}

export interface CdnVariantDeps {
  pipeline: Pipeline
  cache: GuardedResponseCache
  /** Serves hits (the same lane the server's front door runs, see `cdnServerFactory`). */
  hits: HitLane
  /** CDN_CLIENT_MAX_AGE: how long downstream caches may keep an answer without asking again. */
  clientMaxAge: number
}

const ALLOW = 'GET, HEAD'

/**
 * The cached variant's rules (docs/credits-and-cache.md) as two steps of the common pipeline.
 * onRequest: GET and HEAD only, and a fresh stored answer is sent by the hit lane before any
 * signature or database work (in a server, the lane runs even before Fastify's router).
 * onSend: a signed GET's 200 is stored as bare JSON by its full URL; JSONP is wrapped per request,
 * so an error (sent as a JSONP 200) is never stored.
 */
export const cdnVariant = fp<CdnVariantDeps>(async (_app, deps) => {
  /** The cache's epoch when each request began, before it read anything (see StoreOptions.epoch). */
  const epochs = new WeakMap<FastifyRequest, number>()
  deps.pipeline.step('onRequest', 'cdn', (policy) => (request, reply, done) => {
    epochs.set(request, deps.cache.epoch)
    // Players post events to whichever listener they know (docs/analytics.md); nothing there is cached.
    if (policy.config.cdnAnyMethod === true) {
      done()
      return
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      done(new ApiError('method_not_allowed', `The cached endpoint serves GET and HEAD only, not ${request.method}.`, undefined, { Allow: ALLOW }))
      return
    }
    // The server's front door (`cdnServerFactory`) has already served this URL's hit, if it had one.
    if (lookedUp(request.raw)) {
      done()
      return
    }
    let hit: boolean | Promise<boolean>
    try {
      hit = deps.hits(request.raw, reply.raw, request.log, request.id)
    } catch (error) {
      done(error as Error)
      return
    }
    if (hit === true) reply.hijack()
    else if (hit === false) done()
    else hit.then((answered) => { if (answered) reply.hijack(); else done() }, done)
  })

  deps.pipeline.step('onSend', 'cdn', (policy) => (request, reply, payload, done) => {
    stored(policy.config, request, reply, payload).then((sent) => { done(null, sent) }, done)
  })

  async function stored (config: FastifyContextConfig, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    // Media files say how long they keep (immutable segments for a year); they are never JSON.
    if (config.ownCacheHeaders === true && reply.statusCode < 400) return payload
    const caller = request.signed.caller
    if (reply.statusCode === 200 && caller !== undefined && config.cdnCache !== false) {
      // Only a GET stores: a HEAD may carry a HEAD signature, and its URL must not unlock the GET body.
      reply.headers(freshnessHeaders(deps.clientMaxAge, 0, false))
      if (isBytes(payload)) {
        const etag = bodyEtag(payload)
        const url = request.raw.url ?? '/'
        if (request.method === 'GET') {
          await deps.cache.set(url, {
            status: 200, headers: { ...cachedHeaders(reply.getHeaders()), etag }, body: Buffer.from(payload), accountId: caller.accountId
          }, { tags: answerTags(url.split('?', 1)[0], caller.accountId, caller.userId), epoch: epochs.get(request) })
        }
        const sent = representationEtag(etag, validCallback(request))
        reply.header('etag', sent)
        if (matchesIfNoneMatch(request.headers['if-none-match'], sent)) {
          reply.code(304).removeHeader('content-type').removeHeader('content-length')
          return ''
        }
      }
    } else {
      // Errors and per-call answers must not be kept downstream either (JSONP even turns errors into 200s).
      reply.header('cache-control', 'no-store').header('x-cache', 'MISS')
    }
    return jsonp(request, reply, payload)
  }
}, { name: 'reelhouse-cdn-variant' })

/**
 * `name(<json>)` with status 200 and the real status inside (docs/credits-and-cache.md). Only JSON answers are
 * wrapped; the callback name was checked before authentication, and a bad one gets a plain 400.
 */
function jsonp (request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const callback = callbackParameter(request.signed.pairs)
  if (callback === undefined || !isValidCallback(callback) || !isBytes(payload)) return payload
  if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload
  const status = reply.statusCode
  reply.code(200).headers(JSONP_HEADERS)
  return wrapJsonp(callback, status, typeof payload === 'string' ? payload : payload.toString('utf8'))
}

function validCallback (request: FastifyRequest): string | undefined {
  const callback = callbackParameter(request.signed.pairs)
  return callback !== undefined && isValidCallback(callback) ? callback : undefined
}

function isBytes (payload: unknown): payload is string | Buffer {
  return typeof payload === 'string' || Buffer.isBuffer(payload)
}
