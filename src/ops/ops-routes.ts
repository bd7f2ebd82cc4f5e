import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sql } from 'kysely'
import { Type } from 'typebox'
import type { Kysely } from 'kysely'
import type { DB } from '../db/tables/index.ts'
import { Problem } from '../http/schemas.ts'
import { readiness, type ReadinessCheck } from './readiness.ts'

const Health = Type.Object({ status: Type.Literal('ok', { description: 'Always ok: the process answers', examples: ['ok'] }) }, { title: 'Health', description: 'The process is alive' })
const Ready = Type.Object({
  status: Type.String({ description: 'ok when every dependency is, else the state of the first that is not', examples: ['ok'] }),
  checks: Type.Record(Type.String(), Type.String(), { description: 'Each dependency and its state', examples: [{ database: 'ok', search: 'ok', analytics: 'ok' }] })
}, { title: 'Readiness', description: 'Whether each dependency answers' })
/** Unsigned routes still read their query string: a malformed one is a 400. */
const QueryProblem = { 400: Problem }

/** `/health` (liveness) and `/ready` (each dependency's state); both unsigned. */
export const opsRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<DB>, checks: Record<string, ReadinessCheck> }> = async (app, { db, checks }) => {
  const all: Record<string, ReadinessCheck> = {
    database: async () => { await sql`SELECT 1`.execute(db); return 'ok' },
    ...checks
  }
  app.get('/health', {
    config: { public: true },
    schema: {
      operationId: 'getHealth',
      summary: 'Liveness',
      description: 'Answers 200 while the process runs, checking nothing else; for a supervisor deciding whether to restart it. Unsigned.',
      tags: ['operations'],
      response: { 200: Health, ...QueryProblem }
    }
  }, async () => ({ status: 'ok' as const }))

  app.get('/ready', {
    config: { public: true },
    schema: {
      operationId: 'getReadiness',
      summary: 'Readiness',
      description: 'Checks each dependency (database, search, analytics) and answers 200 when all are ok, else 503 with the state of each; for a load balancer deciding whether to send traffic. Unsigned.',
      tags: ['operations'],
      response: { 200: Ready, 503: Ready, ...QueryProblem }
    }
  }, async (_req, reply) => {
    const { code, body } = await readiness(all)
    return await reply.code(code).send(body)
  })
}
