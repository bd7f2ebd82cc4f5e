import type { FastifyInstance } from 'fastify'
import { opsRoutes } from '../ops/ops-routes.ts'
import { usersRoutes } from '../users/index.ts'
import type { AppContext } from './context.ts'

/** Every route plugin of the app, one line each. */
export async function registerRoutes (app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(opsRoutes, { ctx, checks: {} })
  await app.register(usersRoutes, { ctx })
}
