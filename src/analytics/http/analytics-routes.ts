import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { collectRoutes } from './collect-routes.ts'
import { importRoutes } from './import-routes.ts'
import { reportRoutes } from './report-routes.ts'
import type { AnalyticsRouteDeps } from './route-deps.ts'

/**
 * `/v2/analytics` (docs/analytics.md). Each part is its own encapsulated plugin: collection has CORS and
 * a per-address limit, the import its own streaming content-type parser, reports neither.
 */
export const analyticsRoutes: FastifyPluginAsyncTypebox<{ ctx: AnalyticsRouteDeps }> = async (app, { ctx }) => {
  await app.register(collectRoutes, { ctx })
  await app.register(importRoutes, { ctx })
  await app.register(reportRoutes, { ctx })
}
