import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sql } from 'kysely'
import { Type } from 'typebox'
import type { AppContext } from '../app/context.ts'
import { readiness, type ReadinessCheck } from './readiness.ts'

export type { ReadinessCheck } from './readiness.ts'

const Health = Type.Object({ status: Type.Literal('ok') })
const Ready = Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Type.String()) })

/** `/health` (liveness) and `/ready` (each dependency's state); both unsigned. */
export const opsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext, checks: Record<string, ReadinessCheck> }> = async (app, { ctx, checks }) => {
  const all: Record<string, ReadinessCheck> = {
    database: async () => { await sql`SELECT 1`.execute(ctx.db); return 'ok' },
    ...checks
  }
  app.get('/health', { config: { public: true }, schema: { tags: ['operations'], response: { 200: Health } } }, async () => ({ status: 'ok' as const }))

  app.get('/ready', { config: { public: true }, schema: { tags: ['operations'], response: { 200: Ready, 503: Ready } } }, async (_req, reply) => {
    const { code, body } = await readiness(all)
    return await reply.code(code).send(body)
  })
}
