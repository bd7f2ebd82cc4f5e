import type { FastifyPluginAsync } from 'fastify'
import type { AppContext } from '../../app/context.ts'
import { collectRoutes } from './collect-routes.ts'
import { importRoutes } from './import-routes.ts'
import { reportRoutes } from './report-routes.ts'

/**
 * `/v2/analytics` (product.md §9). Each part is its own encapsulated plugin: collection has CORS and a
 * per-address limit, the import its own streaming content-type parser, reports neither.
 */
export const analyticsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(collectRoutes, { ctx })
  await app.register(importRoutes, { ctx })
  await app.register(reportRoutes, { ctx })
}
