import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RouteOptions } from 'fastify'
import { allowsAll } from '../../auth/roles.ts'
import type { Authenticator } from '../authenticate.ts'
import type { WrittenAnswers } from '../serialised-once.ts'
import { leanRoutes } from './lean-routes.ts'

export interface LeanLaneDeps {
  /** Every route of the app (read once the app is ready): the ones whose config offers `lean`. */
  routes: readonly RouteOptions[]
  /** Its verified-URL cache (`known`): the lane never verifies a signature itself. */
  authenticator: Pick<Authenticator, 'known'>
  /** The JSON each route's serializer has already written for an answer. */
  written: WrittenAnswers
  /** The credits gate's charge at once (src/credits/credits-gate.ts). */
  chargeAtOnce: (accountId: string, method: string, url: string, pairs: ReadonlyArray<readonly [string, string]>) => string[] | undefined
  /** The request id of a request (the client's X-Request-Id when sane). */
  requestId: (request: IncomingMessage) => string
}

/**
 * Answers a request from memory when it is a signed GET or HEAD of one resource that the full pipeline
 * would answer 200, before any framework work; returns the request id it answered with, or undefined
 * when it left the request alone. Synchronous: everything it reads is in this process.
 */
export interface LeanLane {
  (request: IncomingMessage, response: ServerResponse): string | undefined
  /** Requests the lane answered (for tests and metrics). */
  readonly answered: number
}

const JSON_TYPE = 'application/json; charset=utf-8'
/** The query a lean GET may carry: the signing parameters, nothing else (a JSONP `callback`, an `include`: the full pipeline). */
const SIGNING_KEYS = new Set(['api_key', 'expires', 'signature'])

/**
 * The signed GET's lean lane (docs/benchmarks.md, "The signed GET's lean lane"). It answers only when
 * every step of the full pipeline would pass and it can tell so from memory, and then sends what the full
 * pipeline sends, header for header:
 *
 * 1. a GET or HEAD with no body, whose path names a lean route (`config.lean`) as the router reads it;
 * 2. a URL this process has verified before with the same credential, not past its `expires` (the
 *    authenticator's verified-URL cache), carrying only the signing parameters;
 * 3. the caller's role allows the route;
 * 4. the resource is in the read cache for the caller's account, and the route's serializer has already
 *    written its JSON (counted in the read cache's budget);
 * 5. the account's charge can be made at once and is allowed.
 *
 * Anything else — a first sight, an expired or unknown URL, a wrong signature, a refused role, a missing or
 * foreign resource, exhausted credits, query parameters of the route's own, a shared credits store —
 * goes to the full pipeline, which answers it as it answers every request. Nothing is charged or changed
 * before the last check has passed.
 */
export function createLeanLane (deps: LeanLaneDeps): LeanLane {
  let match: ReturnType<typeof leanRoutes> | undefined
  let answered = 0

  const lane = (request: IncomingMessage, response: ServerResponse): string | undefined => {
    const method = request.method
    if (method !== 'GET' && method !== 'HEAD') return undefined
    const headers = request.headers
    if (headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')) return undefined
    const url = request.url ?? '/'
    const q = url.indexOf('?')
    const found = (match ??= leanRoutes(deps.routes, deps.written))(q === -1 ? url : url.slice(0, q))
    if (found === undefined) return undefined
    const verified = deps.authenticator.known(method, url)
    if (verified === undefined || !onlySigning(verified.pairs)) return undefined
    const { route, id } = found
    const caller = verified.caller
    if (!allowsAll(caller.role, route.permission)) return undefined
    const answer = route.peek(caller, id)
    if (answer === undefined) return undefined
    const written = route.written[method](answer)
    if (written === undefined) return undefined
    const credits = deps.chargeAtOnce(caller.accountId, method, route.url, verified.pairs)
    if (credits === undefined) return undefined

    // The full pipeline's order: the request id (onRequest), the credits (charge), then the reply's own.
    const requestId = deps.requestId(request)
    response.writeHead(200, ['x-request-id', requestId, ...credits, 'content-type', JSON_TYPE, 'content-length', String(written.bytes)])
    response.end(method === 'HEAD' ? undefined : written.json)
    answered += 1
    return requestId
  }
  Object.defineProperty(lane, 'answered', { get: () => answered })
  return lane as LeanLane
}

function onlySigning (pairs: ReadonlyArray<readonly [string, string]>): boolean {
  if (pairs.length !== SIGNING_KEYS.size) return false
  for (const [key] of pairs) if (!SIGNING_KEYS.has(key)) return false
  return true
}
