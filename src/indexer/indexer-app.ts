import { createHash, timingSafeEqual } from 'node:crypto'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { readiness } from '../ops/readiness.ts'
import { sql } from 'kysely'
import { Type } from 'typebox'
import type { Config } from '../config/index.ts'
import { ApiError, errorReferenceOf, sendProblem, toApiError } from '../errors/index.ts'
import { httpLogging } from '../http/logging.ts'
import { requestIdOf } from '../http/request-id.ts'
import { validatorCompiler } from '../http/validators.ts'
import { INDEX_QUEUE } from '../outbox/index.ts'
import { amqpVhost } from './pending-count.ts'
import { OutboxStatus, ParkedEntries, ParkedQuery, QueueNotFound, QueueParams, QueueStatus, Reindexed, ReindexBody } from './indexer-schemas.ts'
import { createIndexerService, type IndexerDeps, type IndexerService } from './indexer-service.ts'
import { searchReadinessCheck } from './mapping-check.ts'
import { accountsWithIndexedContent } from './reindex.ts'

export interface IndexerAppOptions {
  config: Pick<Config, 'amqpUrl' | 'logLevel' | 'indexerUser' | 'indexerPassword' | 'publicApiUrl'>
  logger?: boolean
}

/**
 * The indexing service (`indexer` role, docs/search-and-indexing.md): plain HTTP, loopback and open by
 * default; basic auth on every route but /health when INDEXER_USER/INDEXER_PASSWORD are set.
 */
export async function buildIndexerApp (deps: IndexerDeps, options: IndexerAppOptions): Promise<FastifyInstance> {
  const { config } = options
  const app = Fastify({
    ...httpLogging(options.logger === false ? false : config),
    genReqId: requestIdOf,
    requestIdHeader: false,
    connectionTimeout: 120_000,
    requestTimeout: 60_000,
    keepAliveTimeout: 10_000
  }).withTypeProvider<TypeBoxTypeProvider>()
  app.setValidatorCompiler(validatorCompiler())
  app.decorate('errorReference', errorReferenceOf(config.publicApiUrl))
  const checkAuth = basicAuth(config.indexerUser, config.indexerPassword)
  app.addHook('onRequest', async (request) => {
    if (request.url !== '/health') checkAuth(request)
  })
  app.setErrorHandler(async (error, request, reply) => {
    const apiError = toApiError(error, request)
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed')
    return await sendProblem(request, reply, apiError)
  })
  app.setNotFoundHandler(async (request, reply) =>
    await sendProblem(request, reply, new ApiError('route_not_found', `No route ${request.method} ${request.url.split('?', 1)[0]}.`)))
  await app.register(indexerRoutes, { service: createIndexerService(deps), deps })
  await app.ready()
  return app
}

const indexerRoutes: FastifyPluginAsyncTypebox<{ service: IndexerService, deps: IndexerDeps }> = async (app, { service, deps }) => {
  app.post('/api/reindex', { schema: { body: ReindexBody, response: { 202: Reindexed } } }, async (request, reply) =>
    await reply.code(202).send(await service.reindex(request.body.accountId)))

  // The index queue's virtual host: AMQP_URL's, or `/` for the embedded queue.
  const vhost = amqpVhost(deps.config.amqpUrl)
  app.get('/api/queues/:vhost/:name', { schema: { params: QueueParams, response: { 200: QueueStatus, 404: QueueNotFound } } }, async (request, reply) => {
    if (request.params.vhost !== vhost || request.params.name !== INDEX_QUEUE) {
      return await reply.code(404).send({ error: 'Object Not Found', reason: 'Not Found' })
    }
    if (!service.embedded) {
      return await reply.code(404).send({ error: 'Object Not Found', reason: 'The index queue is on RabbitMQ: ask its management API (RABBITMQ_MANAGEMENT_URL).' })
    }
    return await service.queueStatus()
  })

  app.get('/api/outbox', { schema: { response: { 200: OutboxStatus } } }, async () => await service.outboxStatus())
  app.get('/api/parked', { schema: { querystring: ParkedQuery, response: { 200: ParkedEntries } } }, async (request) => await service.parked(request.query.accountId))

  app.get('/metrics', async (_request, reply) => await reply.type('text/plain; version=0.0.4; charset=utf-8').send(await service.metricsText()))

  app.get('/health', { schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, async () => ({ status: 'ok' as const }))
  const checks: Record<string, () => Promise<string>> = {
    database: async () => { await sql`SELECT 1`.execute(deps.database.db); return 'ok' },
    search: searchReadinessCheck(deps.store, async () => await accountsWithIndexedContent(deps.database.db)),
    ...(deps.worker?.relay === undefined ? {} : { rabbitmq: async () => deps.worker?.relay?.stats.connected === true ? 'ok' : 'down: not connected' })
  }
  app.get('/ready', async (_request, reply) => {
    const { code, body } = await readiness(checks)
    return await reply.code(code).send(body)
  })
}

/** Basic auth against the configured pair, compared in constant time; a no-op when none is set. */
function basicAuth (user: string | undefined, password: string | undefined): (request: FastifyRequest) => void {
  if (user === undefined || password === undefined) return () => {}
  const expected = digest(`${user}:${password}`)
  return (request) => {
    const header = request.headers.authorization ?? ''
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header)
    const given = match === null ? '' : Buffer.from(match[1], 'base64').toString('utf8')
    if (!timingSafeEqual(digest(given), expected)) {
      throw new ApiError('indexer_unauthorized', 'The indexing service requires basic authentication.', undefined, { 'WWW-Authenticate': 'Basic realm="reelhouse-indexer", charset="UTF-8"' })
    }
  }
}

function digest (text: string): Buffer {
  return createHash('sha256').update(text).digest()
}
