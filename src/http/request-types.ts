import type { FastifyRequest } from 'fastify'
import type { Caller } from '../auth/caller.ts'
import type { RouteAccess } from '../auth/roles.ts'
import type { QueryPairs } from '../signing/index.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The decoded query pairs as received (signature input; duplicates visible). */
    queryPairs: QueryPairs | undefined
    /** Raw body bytes as received, before JSON parsing. */
    rawBody: Buffer | undefined
    /** Who the verified signature names; set by the authentication hook on signed routes. */
    caller: Caller | undefined
    /** A `streamBody` route's caller before its signature is checked (set instead of `caller` until then). */
    pendingAuth: PendingAuth | undefined
    /** `routeOptions`, read once: see `routeOf`. */
    route: FastifyRequest['routeOptions'] | undefined
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
     * so the pipeline checks everything else up front and the handler calls `pendingAuth.verify()`
     * once the body has passed; until then nothing may be stored or shown.
     */
    streamBody?: boolean
  }
}

/** The caller of a `streamBody` route, until the body has been read and its signature checked. */
export interface PendingAuth {
  /** Who the api_key names (role already checked); not proven until `verify` resolves. */
  claimed: Caller
  /** Feeds body bytes, exactly as received, to the signature. */
  update: (chunk: Buffer) => void
  /**
   * After the last byte: checks the signature and charges the request (a 401 to the client address, or
   * the account's charge, which may be a 429); then sets `request.caller`. Runs once; later calls repeat its outcome.
   */
  verify: () => Promise<Caller>
}

/** The authenticated caller; only called on signed routes, where the hook has set it. */
export function callerOf (request: { caller: Caller | undefined }): Caller {
  if (request.caller === undefined) throw new Error('route is not authenticated')
  return request.caller
}

/**
 * The request's route options. Fastify builds a new `routeOptions` object on every read, and the
 * pipeline reads it several times a request (signed or public, permission, cost, body handling).
 */
export function routeOf (request: FastifyRequest): FastifyRequest['routeOptions'] {
  return (request.route ??= request.routeOptions)
}
