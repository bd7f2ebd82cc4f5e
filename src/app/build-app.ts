import type { Socket } from 'node:net'
import Fastify, { errorCodes, type FastifyBaseLogger, type FastifyContextConfig, type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { registerApiReference } from '../api-reference/api-reference-routes.ts'
import { assertValidCallback, callbackParameter, cdnServerFactory, createHitLane, registerCdnVariant } from '../cdn/index.ts'
import { createCreditsGate, createDisabledCreditsGate, CreditsUnavailableError } from '../credits/index.ts'
import { ApiError, sendProblem, toApiError } from '../errors/index.ts'
import { createAuthenticator, type StreamedClaim } from '../http/authenticate.ts'
import { captureRawBody, parseBodyOf, registerRawBodyParser } from '../http/body.ts'
import { registerIdempotency } from '../http/idempotency/index.ts'
import { httpLogging } from '../http/logging.ts'
import { allowedMethods } from '../http/allowed-methods.ts'
import { watchBody } from '../http/body-deadline.ts'
import { clientErrorHandler } from '../http/client-error.ts'
import { requestIdOf } from '../http/request-id.ts'
import { validatorCompiler } from '../http/validators.ts'
import type { Caller } from '../auth/caller.ts'
import { routeOf } from '../http/request-types.ts'
import type { AppContext } from './context.ts'
import { registerRoutes } from './routes.ts'

export type Variant = 'api' | 'cdn'

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app as registered, for the checks that walk them all (access rules, tests). */
    routeTable: readonly RouteOptions[]
  }
}

export interface BuildOptions {
  /** `api`: the main service; `cdn`: the cached plain-HTTP variant (docs/credits-and-cache.md). */
  variant?: Variant
  https?: { key: string | Buffer, cert: string | Buffer }
  logger?: boolean
}

/**
 * Builds the HTTP app over a context. The request pipeline is the same for every route:
 * request id → [cdn: method, cache hit] → raw body → query parsing → signature (signed routes) →
 * role → credits charge → schema → handler, and one error handler writes every error body.
 * Every response carries the credit headers (docs/credits-and-cache.md).
 */
export async function buildApp (ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const variant = options.variant ?? 'api'
  const { config } = ctx
  const credits = config.creditsEnabled
    ? createCreditsGate({ store: ctx.credits, allowances: ctx.allowances, globalAllowance: config.creditsPerMinute, clock: ctx.clock })
    : createDisabledCreditsGate({ globalAllowance: config.creditsPerMinute, clock: ctx.clock })
  let log: FastifyBaseLogger | undefined
  // Malformed framing, and a body that arrives too slowly: our error format, then the connection closes.
  const onClientError = clientErrorHandler(() => log)
  const hits = variant === 'cdn'
    ? createHitLane({ cache: ctx.responseCache, clock: ctx.clock, clientMaxAge: config.cdnClientMaxAge, balanceHeaders: credits.balanceHeaders, requestId: requestIdOf })
    : undefined
  const app = Fastify({
    // A connection that never completes its TLS handshake is closed after TLS_HANDSHAKE_TIMEOUT_SECONDS.
    ...(options.https !== undefined ? { https: { ...options.https, handshakeTimeout: config.tlsHandshakeTimeoutSeconds * 1000 } } : {}),
    // The cached variant serves its hits in front of the router (docs/decisions.md, "Performance").
    ...(hits !== undefined && options.https === undefined ? { serverFactory: cdnServerFactory(hits, () => log) } : {}),
    ...httpLogging(options.logger === false ? false : config),
    genReqId: requestIdOf,
    clientErrorHandler: onClientError,
    requestIdHeader: false,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // Explicit timeouts: a slow client cannot hold a connection or a request open forever. Headers have
    // REQUEST_HEADERS_TIMEOUT_SECONDS (set at listen, src/server/connection-guard.ts); a body has a
    // deadline that grows with its length (watchBody, below).
    connectionTimeout: 120_000,
    requestTimeout: 0,
    keepAliveTimeout: 10_000,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { removeAdditional: false } },
    // A URL Fastify cannot decode skips the hooks: answer it through the same serializer and headers.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id)
      Promise.resolve(credits.fillHeaders(request, reply))
        .finally(() => sendProblem(request, reply, toApiError(error)))
        .catch((err: unknown) => { request.log.error({ err }, 'could not answer a framework error') })
    }
  }).withTypeProvider<TypeBoxTypeProvider>()
  log = app.log

  // Declared up front, so every request object has one shape instead of growing these fields one by one.
  for (const field of ['queryPairs', 'rawBody', 'caller', 'pendingAuth', 'credits', 'route'] as const) app.decorateRequest(field, undefined)
  app.setValidatorCompiler(validatorCompiler())
  registerRawBodyParser(app, config.bodyLimit)
  const authenticator = createAuthenticator({ users: ctx.users, secrets: ctx.secrets, now: () => ctx.clock.now(), maxExpiresSeconds: config.maxExpiresSeconds, verified: config.readCacheBytes > 0 ? ctx.freshness.readCache : undefined })

  // The hooks every request passes take a callback where they need not wait: no promise on the hot path.
  const bodyDeadline = { allowanceMs: config.requestBodyTimeoutSeconds * 1000, minBytesPerSecond: config.requestBodyMinRate }
  const late = (socket: Socket): void => { onClientError(Object.assign(new Error('request body too slow'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket) }
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    watchBody(request.raw, bodyDeadline, late)
    // Behind a TLS-terminating proxy, only requests that reached the proxy over HTTPS are served.
    if (variant === 'api' && config.trustProxy && request.protocol !== 'https') {
      done(new ApiError('https_required', 'HTTPS is required.'))
      return
    }
    done()
  })

  if (hits !== undefined) {
    registerCdnVariant(app, { cache: ctx.responseCache, hits, clientMaxAge: config.cdnClientMaxAge })
  }

  app.addHook('preValidation', (request, reply, done) => {
    let pending: Promise<void> | undefined
    try {
      captureRawBody(request)
      if (isSigned(request)) {
        pending = routeOf(request).config.streamBody === true ? authenticateBeforeBody(request, reply) : authenticateAndCharge(request, reply)
      } else {
        authenticator.readQuery(request)
        checkCallback(request, false)
      }
      if (pending === undefined) parseBodyOf(request)
    } catch (error) {
      done(asError(error))
      return
    }
    if (pending === undefined) done()
    else pending.then(() => { parseBodyOf(request) }).then(() => { done() }, (error: unknown) => { done(asError(error)) })
  })
  app.addHook('onSend', (request, reply, payload, done) => {
    const filling = credits.fillHeaders(request, reply)
    if (filling === undefined) done(null, payload)
    else filling.then(() => { done(null, payload) }, (error: unknown) => { done(error as Error) })
  })

  /**
   * One charge per signed request: to the account once verified, else to the client address.
   * Undefined when all is done at once: a URL verified before, charged to an in-process store.
   */
  function authenticateAndCharge (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    let known: Caller | undefined
    try {
      known = authenticator.known(request)
    } catch (error) {
      return refuse(request, reply, error)
    }
    return known === undefined ? verifyAndCharge(request, reply) : credits.chargeAccount(request, reply, known.accountId)
  }

  async function verifyAndCharge (request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let accountId: string
    try {
      authenticator.readQuery(request)
      checkCallback(request, true)
      accountId = (await authenticator.authenticate(request)).accountId
    } catch (error) {
      await refuse(request, reply, error)
      return
    }
    await credits.chargeAccount(request, reply, accountId)
  }

  /** Charges a refused request once and throws what to answer. */
  async function refuse (request: FastifyRequest, reply: FastifyReply, error: unknown): Promise<never> {
    if (request.caller === undefined) throw await credits.chargeFailedAuthentication(request, reply, error)
    // The signature was good and only the role was refused: the account pays, as for any answered request.
    await credits.chargeAccount(request, reply, request.caller.accountId)
    throw error
  }

  /**
   * A streamed body (`config.streamBody`) is signed but not yet read: check what needs no body now,
   * and leave the signature and the one charge to `pendingAuth.verify()` once the handler has read it.
   */
  async function authenticateBeforeBody (request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let claim: StreamedClaim
    try {
      authenticator.readQuery(request)
      checkCallback(request, true)
      claim = await authenticator.authenticateStreamed(request)
    } catch (error) {
      // Nothing is proven yet, a role refusal included: the client address pays.
      throw await credits.chargeFailedAuthentication(request, reply, error)
    }
    let verified: Promise<Caller> | undefined
    request.pendingAuth = {
      claimed: claim.claimed,
      update: claim.hasher.update,
      verify: async () => await (verified ??= (async () => {
        if (!claim.matches()) throw await credits.chargeFailedAuthentication(request, reply, claim.mismatch())
        request.caller = claim.claimed
        await credits.chargeAccount(request, reply, claim.claimed.accountId)
        return claim.claimed
      })())
    }
  }

  /** JSONP exists only on the cached variant (docs/credits-and-cache.md); its name is checked before any other work. */
  function checkCallback (request: FastifyRequest, signed: boolean): void {
    const callback = callbackParameter(request.queryPairs)
    if (callback === undefined) return
    if (variant === 'cdn') assertValidCallback(callback)
    else if (signed) throw new ApiError('jsonp_not_allowed', 'JSONP is served only by the cached endpoint.')
  }

  if (variant === 'api') registerIdempotency(app, { database: ctx.database, clock: ctx.clock, secrets: ctx.secrets })

  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error)
    // A refusal while Redis is away is expected: the store logs the outage once and counts each refusal.
    if (apiError.status >= 500 && !(error instanceof CreditsUnavailableError)) request.log.error({ err: error }, 'request failed')
    return await sendProblem(request, reply, apiError)
  })
  const routes: RouteOptions[] = []
  const allowedAt = allowedMethods(routes)
  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] as string
    const allowed = allowedAt(request.url)
    if (allowed.length > 0) {
      return await sendProblem(request, reply, new ApiError('method_not_allowed', `${request.method} is not allowed on ${path}; it takes ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') }))
    }
    return await sendProblem(request, reply, new ApiError('route_not_found', `No route ${request.method} ${path}.`))
  })

  app.addHook('onRoute', (route) => { routes.push(route) })
  if (variant === 'api') await registerApiReference(app)
  await registerRoutes(app, ctx, variant === 'api' ? config.publicApiUrl : config.publicCdnUrl)
  await app.after()
  assertAccessRules(routes)
  app.decorate('routeTable', routes)
  await app.ready()
  return app
}

/**
 * Whether a request must be signed, decided by the route it matched, never by the raw text of its URL
 * (a percent-encoded `/%762/labels` matches `/v2/labels`): every route is signed unless it says
 * `public: true`. A request that matched no route is signed when its decoded path is under `/v2/`, as
 * the router would read it, so its 404 is charged to the account like any answered request.
 */
function isSigned (request: FastifyRequest): boolean {
  const route = routeOf(request)
  if (route.url !== undefined) return route.config.public !== true
  return decodedPath(request.url).startsWith('/v2/')
}

/** What a hook passes on for a failure: never nothing, which would let the request through (as Fastify does for a promise). */
function asError (error: unknown): Error {
  return (error ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()) as Error
}

function decodedPath (url: string): string {
  const path = url.split('?', 1)[0] as string
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/**
 * Refuses, at start, a route that is neither public nor given the role permission it needs: a route
 * cannot become unsigned or unchecked by forgetting to say what it is.
 */
function assertAccessRules (routes: RouteOptions[]): void {
  for (const route of routes) {
    const config = route.config as FastifyContextConfig | undefined
    if (config?.public !== true && config?.permission === undefined) {
      throw new Error(`route ${String(route.method)} ${route.url} declares neither config.public nor config.permission`)
    }
  }
}
