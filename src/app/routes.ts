import type { FastifyInstance } from 'fastify'
import { analyticsReadinessChecks, analyticsRoutes } from '../analytics/http/index.ts'
import { creditsRoutes } from '../credits/index.ts'
import { searchReadinessCheck } from '../indexer/mapping-check.ts'
import { opsRoutes } from '../ops/ops-routes.ts'
import { usersRoutes } from '../users/index.ts'
import { labelsRoutes } from '../labels/index.ts'
import { playersRoutes } from '../players/index.ts'
import { publishingRulesRoutes } from '../publishing-rules/index.ts'
import { assetsRoutes } from '../assets/index.ts'
import { syndicationsRoutes } from '../syndications/index.ts'
import type { AppContext } from './context.ts'

/** Every route plugin of the app, one line each. */
export async function registerRoutes (app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(opsRoutes, { ctx, checks: { search: searchReadinessCheck(ctx.search), ...analyticsReadinessChecks(ctx.analytics) } })
  await app.register(usersRoutes, { ctx })
  await app.register(creditsRoutes)
  await app.register(labelsRoutes, { ctx })
  await app.register(playersRoutes, { ctx })
  await app.register(publishingRulesRoutes, { ctx })
  await app.register(assetsRoutes, { ctx })
  await app.register(syndicationsRoutes, { ctx })
  await app.register(analyticsRoutes, { ctx })
}
