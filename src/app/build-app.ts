import type { Socket } from 'node:net'
import Fastify, { type FastifyBaseLogger, type FastifyContextConfig, type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { registerApiReference } from '../api-reference/api-reference-routes.ts'
import { assertValidCallback, callbackParameter, cdnServerFactory, cdnVariant, createHitLane } from '../cdn/index.ts'
import { createCreditsGate, createDisabledCreditsGate, CreditsUnavailableError } from '../credits/index.ts'
import { ApiError, errorReferenceOf, sendProblem, toApiError } from '../errors/index.ts'
import { createAuthenticator } from '../http/authenticate.ts'
import { httpLogging } from '../http/logging.ts'
import { clientErrorHandler } from '../http/client-error.ts'
import { bodySteps, createPipeline, creditsStep, idempotencySteps, jsonpGuard, methodGuard, requestIdStep, roleStep, signatureSteps, skipQueryParsing } from '../http/pipeline/index.ts'
import { requestIdOf } from '../http/request-id.ts'
import { trustedProxies } from '../http/trust-proxy.ts'
import { reusingSerializer, WrittenAnswers } from '../http/serialised-once.ts'
import { createLeanLane, leanServerFactory, type FrontDoorState, type LeanLane } from '../http/lean-lane/index.ts'
import { validatorCompiler } from '../http/validators.ts'
import type { AppContext } from './context.ts'
import { registerRoutes } from './routes.ts'

export type Variant = 'api' | 'cdn'

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app as registered, for the checks that walk them all (access rules, tests). */
    routeTable: readonly RouteOptions[]
    /** The main service's lean lane, when it has one (LEAN_LANE). */
    leanLane?: LeanLane
  }
}

export interface BuildOptions {
  /** `api`: the main service; `cdn`: the cached plain-HTTP variant (docs/credits-and-cache.md). */
  variant?: Variant
  https?: { key: string | Buffer, cert: string | Buffer }
  logger?: boolean
  /** The main service's lean lane (default: LEAN_LANE); `false` for the tests that compare it with the full pipeline. */
  leanLane?: boolean
}

/**
 * Builds the HTTP app over a context. The request pipeline is a list of steps, each a plugin of
 * `src/http/pipeline/` that gives every route only the steps it needs, in one order (docs/architecture.md,
 * "A request, step by step"): request id → [cdn: method, cache hit] → a wrong method's 405 → raw body →
 * query → JSONP name → signature → role → credits → JSON body → schema → [Idempotency-Key] → handler,
 * and one error handler writes every error body. Every response carries the credit headers.
 */
export async function buildApp (ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const variant = options.variant ?? 'api'
  const { config } = ctx
  const credits = config.creditsEnabled
    ? createCreditsGate({ store: ctx.credits, allowances: ctx.allowances, globalAllowance: config.creditsPerMinute, clock: ctx.clock })
    : createDisabledCreditsGate({ globalAllowance: config.creditsPerMinute, clock: ctx.clock })
  let log: FastifyBaseLogger | undefined
  // Malformed framing, and a body that arrives too slowly: our error format, then the connection closes.
  const errorReference = errorReferenceOf(config.publicApiUrl)
  const onClientError = clientErrorHandler(() => log, errorReference)
  const hits = variant === 'cdn'
    ? createHitLane({ cache: ctx.responseCache, clock: ctx.clock, clientMaxAge: config.cdnClientMaxAge, balanceHeaders: credits.balanceHeaders, balanceNow: credits.balanceNow, requestId: requestIdOf })
    : undefined
  // The main service's lean lane, set once the app is ready and unset when it starts closing (src/http/lean-lane/).
  const front: FrontDoorState = { lane: undefined, log: () => log }
  const lean = variant === 'api' && (options.leanLane ?? config.leanLane) && config.trustProxy === false && config.readCacheBytes > 0
  const written = new WrittenAnswers()
  const app = Fastify({
    // A connection that never completes its TLS handshake is closed after TLS_HANDSHAKE_TIMEOUT_SECONDS.
    ...(options.https !== undefined ? { https: { ...options.https, handshakeTimeout: config.tlsHandshakeTimeoutSeconds * 1000 } } : {}),
    // The cached variant serves its hits in front of the router (docs/decisions.md, "Performance").
    ...(hits !== undefined && options.https === undefined ? { serverFactory: cdnServerFactory(hits, () => log) } : {}),
    ...(lean ? { serverFactory: leanServerFactory(front) } : {}),
    ...httpLogging(options.logger === false ? false : config),
    genReqId: requestIdOf,
    clientErrorHandler: onClientError,
    requestIdHeader: false,
    bodyLimit: config.bodyLimit,
    trustProxy: trustedProxies(config.trustProxy),
    // Explicit timeouts: a slow client cannot hold a connection or a request open forever. Headers have
    // REQUEST_HEADERS_TIMEOUT_SECONDS (set at listen, src/server/connection-guard.ts); a body has a
    // deadline that grows with its length (watchBody, below).
    connectionTimeout: 120_000,
    requestTimeout: 0,
    keepAliveTimeout: 10_000,
    // The pipeline's query step reads every query string once (src/http/pipeline/signature.ts).
    // maxParamLength: a signed asset's child URLs carry a derived playback token (with its narrowing claims) as one path segment.
    routerOptions: { ignoreTrailingSlash: true, querystringParser: skipQueryParsing, maxParamLength: 1100 },
    ajv: { customOptions: { removeAdditional: false } },
    // The JSON of an answer made from a cached row is written once while the row stays cached.
    schemaController: { compilersFactory: { buildSerializer: reusingSerializer(written) } },
    // A URL Fastify cannot decode skips the hooks: answer it through the same serializer and headers.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id)
      Promise.resolve(credits.fillHeaders(request, reply))
        .finally(() => sendProblem(request, reply, toApiError(error)))
        .catch((err: unknown) => { request.log.error({ err }, 'could not answer a framework error') })
    }
  }).withTypeProvider<TypeBoxTypeProvider>()
  log = app.log
  app.decorate('errorReference', errorReference)
  app.setValidatorCompiler(validatorCompiler())

  const routes: RouteOptions[] = []
  app.addHook('onRoute', (route) => { routes.push(route) })
  const pipeline = createPipeline(app)
  const authenticator = createAuthenticator({ users: ctx.users, secrets: ctx.secrets, now: () => ctx.clock.now(), maxExpiresSeconds: config.maxExpiresSeconds, verified: config.readCacheBytes > 0 ? ctx.freshness.readCache : undefined })
  const bodyDeadline = { allowanceMs: config.requestBodyTimeoutSeconds * 1000, minBytesPerSecond: config.requestBodyMinRate }
  const late = (socket: Socket): void => { onClientError(Object.assign(new Error('request body too slow'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket) }

  // The steps' order is fixed by their stages (src/http/pipeline/steps.ts), not by this list.
  await app.register(requestIdStep, { pipeline, bodyDeadline, late, httpsOnly: variant === 'api' && config.trustProxy !== false })
  if (hits !== undefined) await app.register(cdnVariant, { pipeline, cache: ctx.responseCache, hits, clientMaxAge: config.cdnClientMaxAge })
  await app.register(methodGuard, { pipeline, routes })
  await app.register(bodySteps, { pipeline, bodyLimit: config.bodyLimit })
  await app.register(signatureSteps, { pipeline, authenticator })
  await app.register(jsonpGuard, { pipeline, variant, callbackParameter, assertValidCallback })
  await app.register(roleStep, { pipeline })
  await app.register(creditsStep, { pipeline, credits })
  if (variant === 'api') await app.register(idempotencySteps, { pipeline, database: ctx.database, clock: ctx.clock, secrets: ctx.secrets })

  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error)
    // A refusal while Redis is away is expected: the store logs the outage once and counts each refusal.
    if (apiError.status >= 500 && !(error instanceof CreditsUnavailableError)) request.log.error({ err: error }, 'request failed')
    return await sendProblem(request, reply, apiError)
  })
  // A wrong method on a path that exists was answered 405 by the method guard, before any of this.
  app.setNotFoundHandler(pipeline.notFoundHooks() as Parameters<typeof app.setNotFoundHandler>[0], async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] as string
    return await sendProblem(request, reply, new ApiError('route_not_found', `No route ${request.method} ${path}.`))
  })

  if (variant === 'api') await registerApiReference(app)
  await registerRoutes(app, ctx, variant === 'api' ? config.publicApiUrl : config.publicCdnUrl, variant)
  await app.after()
  assertAccessRules(routes)
  app.decorate('routeTable', routes)
  const lane = lean ? createLeanLane({ routes, authenticator, written, chargeAtOnce: credits.chargeAtOnce, requestId: requestIdOf }) : undefined
  if (lane !== undefined) {
    app.decorate('leanLane', lane)
    app.addHook('preClose', (done) => { front.lane = undefined; done() })
  }
  await app.ready()
  front.lane = lane
  return app
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
