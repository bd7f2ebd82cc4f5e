import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { ApiError, sendProblem, toApiError } from '../errors/index.ts'
import { createAuthenticator } from '../http/authenticate.ts'
import { captureRawBody, parseBodyOf, registerRawBodyParser } from '../http/body.ts'
import { loggerOptions } from '../http/logging.ts'
import { requestIdOf } from '../http/request-id.ts'
import { validatorCompiler } from '../http/validators.ts'
import '../http/request-types.ts'
import type { AppContext } from './context.ts'
import { registerRoutes } from './routes.ts'

export type Variant = 'api' | 'cdn'

export interface BuildOptions {
  /** `api`: the main service; `cdn`: the cached plain-HTTP variant (product.md §7). */
  variant?: Variant
  https?: { key: string | Buffer, cert: string | Buffer }
  logger?: boolean
}

/**
 * Builds the HTTP app over a context. The request pipeline is the same for every route:
 * request id → raw body → query parsing → signature (signed routes) → role → schema → handler,
 * and one error handler writes every error body.
 */
export async function buildApp (ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const variant = options.variant ?? 'api'
  const { config } = ctx
  const app = Fastify({
    ...(options.https !== undefined ? { https: options.https } : {}),
    logger: options.logger === false ? false : loggerOptions(config.logLevel),
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // Explicit timeouts: a slow client cannot hold a connection or a request open forever.
    connectionTimeout: 120_000,
    requestTimeout: 60_000,
    keepAliveTimeout: 10_000,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { removeAdditional: false } }
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.setValidatorCompiler(validatorCompiler())
  registerRawBodyParser(app, config.bodyLimit)
  const authenticator = createAuthenticator({ users: ctx.users, secrets: ctx.secrets, now: () => ctx.clock.now() })

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
    // Behind a TLS-terminating proxy, only requests that reached the proxy over HTTPS are served.
    if (variant === 'api' && config.trustProxy && request.protocol !== 'https') {
      throw new ApiError('https_required', 'HTTPS is required.')
    }
  })

  app.addHook('preValidation', async (request) => {
    captureRawBody(request)
    authenticator.readQuery(request)
    if (variant === 'api' && request.queryPairs?.some(([key]) => key === 'callback') === true && isSigned(request)) {
      throw new ApiError('jsonp_not_allowed', 'JSONP is served only by the cached endpoint.')
    }
    if (isSigned(request)) await authenticator.authenticate(request)
    parseBodyOf(request)
  })

  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error)
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed')
    return await sendProblem(request, reply, apiError)
  })
  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) =>
    await sendProblem(request, reply, new ApiError('route_not_found', `No route ${request.method} ${request.url.split('?', 1)[0]}.`)))

  if (variant === 'api') await registerDocs(app)
  await registerRoutes(app, ctx)
  await app.ready()
  return app
}

/** Everything under /v2 is signed unless the route says it is public. */
function isSigned (request: FastifyRequest): boolean {
  return request.routeOptions.config.public !== true && request.url.startsWith('/v2/')
}

async function registerDocs (app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Reelhouse API', version: '2', description: 'Media management and analytics. Every /v2 request is signed (interface-spec §5).' }
    }
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())
}
