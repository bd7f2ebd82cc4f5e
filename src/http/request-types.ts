import type { FastifyContextConfig, RouteOptions } from 'fastify'
import type { Caller } from '../auth/caller.ts'
import type { RouteAccess } from '../auth/roles.ts'
import type { QueryPairs } from '../signing/index.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request pipeline (src/http/pipeline/) established about this request, for the steps after it and the handler. */
    signed: SignedRequest
  }
  interface FastifyContextConfig {
    /** Unsigned route (health, docs, event collection, public feeds). */
    public?: boolean
    /** The role permission a signed route needs (docs/api.md, "Roles"). */
    permission?: RouteAccess
    /** Keep the body as raw bytes (uploads) instead of parsing JSON. */
    rawBody?: boolean
    /**
     * Leave the body unread for the handler to stream (NDJSON import). The signature covers the body,
     * so the pipeline checks everything else up front and the handler calls `signed.pending.verify()`
     * once the body has passed; until then nothing may be stored or shown.
     */
    streamBody?: boolean
    /**
     * A public media file (docs/media.md, "The request path"): the pipeline gives the route only the
     * request id, HTTPS rule, method and query steps; no signature, role, credits or cached-variant work.
     */
    media?: boolean
    /**
     * `false`: the route refuses an `Idempotency-Key`: its answer shows a secret once, and no replay
     * store may keep it (creating a webhook, rotating its secret).
     */
    idempotencyKey?: false
    /** The answer is an open-ended server-sent-events stream: it ends when the client leaves. */
    eventStream?: boolean
    /** A GET of one resource the lean lane may answer from memory (src/http/lean-lane/). */
    lean?: LeanRead
  }
}

/**
 * What a route offers the lean lane: how to answer its GET from memory alone. The answer must be the very
 * object the handler would return for the same caller and id (so that its JSON, written once, is the
 * same), or undefined when memory does not hold it: the full pipeline then answers, whatever the reason.
 * A route that offers it has no hooks of its own (the lane runs only the pipeline's checks).
 */
export interface LeanRead {
  /** The path parameter naming the resource (`player_id`). */
  param: string
  peek: (caller: Caller, id: string) => object | undefined
}

/**
 * What a route asks of the pipeline, read once per route rather than on every request. Settled when the
 * app is ready (`settle`), after every `onRoute` hook has had its say (the API reference marks its
 * routes public that way).
 */
export class RoutePolicy {
  /** The route's pattern (`/v2/players/:player_id`); undefined for a request that matched no route. */
  url: string | undefined
  config: FastifyContextConfig = {}
  /** Signed routes verify a signature; undefined when no route matched (decided by the path, see `signedByPath`). */
  signed: boolean | undefined
  /** A media route (`config.media`), known when the route is declared: its steps are chosen from it. */
  readonly media: boolean
  readonly #route: RouteOptions | undefined

  constructor (route: RouteOptions | undefined) {
    this.#route = route
    this.url = route?.url
    this.media = (route?.config as FastifyContextConfig | undefined)?.media === true
    this.signed = route === undefined ? undefined : true
  }

  settle (): void {
    if (this.#route === undefined) return
    this.config = (this.#route.config ?? {}) as FastifyContextConfig
    this.signed = this.config.public !== true
  }
}

/** The pipeline's state of one request: one object of one shape, created by the first step. */
export class SignedRequest {
  /** Who the verified signature names; set by the signature step on signed routes. */
  caller: Caller | undefined = undefined
  /** The decoded query pairs as received (the signature's input; a duplicated key was refused). */
  pairs: QueryPairs = NO_PAIRS
  /** Raw body bytes as received, before JSON parsing. */
  body: Buffer | undefined = undefined
  /** A `streamBody` route's caller before its signature is checked (set instead of `caller` until then). */
  pending: PendingAuth | undefined = undefined
  /** The account's balance after this request was charged (signed requests that passed authentication). */
  credits: { readonly remaining: number, readonly resetSeconds: number } | undefined = undefined
  /**
   * What a signed request is refused for, found by the query, JSONP, signature or role step; the
   * credits step charges it (to the account when the signature was good, else to the client address) and answers it.
   */
  refusal: unknown = undefined
  readonly policy: RoutePolicy
  /** Whether the request must be signed: its route says so, or, matching none, its path is under `/v2/`. */
  readonly mustSign: boolean

  constructor (policy: RoutePolicy, url: string) {
    this.policy = policy
    this.mustSign = policy.signed ?? signedByPath(url)
  }
}

/**
 * Whether a request must be signed is decided by the route it matched, never by the raw text of its URL
 * (a percent-encoded `/%762/labels` matches `/v2/labels`). A request that matched no route is signed
 * when its decoded path is under `/v2/`, as the router would read it, so its 404 is charged to the
 * account like any answered request.
 */
function signedByPath (url: string): boolean {
  const path = url.split('?', 1)[0] as string
  try {
    return decodeURIComponent(path).startsWith('/v2/')
  } catch {
    return path.startsWith('/v2/')
  }
}

const NO_PAIRS: QueryPairs = []

/** The caller of a `streamBody` route, until the body has been read and its signature checked. */
export interface PendingAuth {
  /** Who the api_key names (role already checked); not proven until `verify` resolves. */
  claimed: Caller
  /** Feeds body bytes, exactly as received, to the signature. */
  update: (chunk: Buffer) => void
  /**
   * After the last byte: checks the signature and charges the request (a 401 to the client address, or
   * the account's charge, which may be a 429); then sets `signed.caller`. Runs once; later calls repeat its outcome.
   */
  verify: () => Promise<Caller>
}

/** The authenticated caller; only called on signed routes, where the pipeline has set it. */
export function callerOf (request: { signed: SignedRequest }): Caller {
  const caller = request.signed.caller
  if (caller === undefined) throw new Error('route is not authenticated')
  return caller
}

/** The claimed caller of a streamed signed route (`config.streamBody`). */
export function pendingAuthOf (request: { signed: SignedRequest }): PendingAuth {
  const pending = request.signed.pending
  if (pending === undefined) throw new Error('route is not a streamed signed route')
  return pending
}
