import Fastify, { type FastifyInstance } from 'fastify'
import type { MetricsRegistry } from './registry.ts'

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/**
 * The listener on METRICS_PORT: `GET /metrics` and nothing else, unsigned, so it binds to loopback
 * unless the operator chooses otherwise (METRICS_HOST). Every process that has it reports its own figures.
 */
export function buildMetricsApp (registry: MetricsRegistry): FastifyInstance {
  const app = Fastify({ logger: false })
  app.get('/metrics', async (_request, reply) => await reply.type(METRICS_CONTENT_TYPE).send(await registry.text()))
  return app
}
