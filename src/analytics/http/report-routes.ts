import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../app/context.ts'
import { authOf } from '../../http/request-types.ts'
import type { ReportAnswer, ReportQuery } from '../index.ts'
import type { AppAnalytics } from './app-analytics.ts'
import * as S from './analytics-schemas.ts'

export const REPORTS_PATH = '/v2/analytics/reports'

/**
 * `GET /v2/analytics/reports` and the classic path form `/v2/analytics/reports/account/performance/…`
 * (product.md §9). 5 credits each (src/credits/cost-table.ts); every role that may read analytics.
 */
export const reportRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = { permission: ['analytics', 'read'] as const }
  const tags = ['analytics']

  app.get(REPORTS_PATH, {
    config,
    schema: { tags, summary: 'Report', querystring: S.ReportQuery, response: { 200: S.ReportAnswer, ...S.AnalyticsErrors } }
  }, async (req) => await report(ctx.analytics, authOf(req).accountId, reportQuery(req)))

  app.get(`${REPORTS_PATH}/*`, {
    config,
    schema: { tags, summary: 'Report, classic path form', params: S.ClassicReportParams, querystring: S.ClassicReportQuery, response: { 200: S.ReportAnswer, ...S.AnalyticsErrors } }
  }, async (req) => await classicReport(ctx.analytics, authOf(req).accountId, requestPath(req), reportQuery(req)))
}

export async function report (analytics: AppAnalytics, accountId: string, query: ReportQuery): Promise<ReportAnswer> {
  return await (await analytics.get()).report(accountId, query, { path: REPORTS_PATH })
}

/** `path` is the request path, still percent-encoded: `next_page` repeats it as the client sent it. */
export async function classicReport (analytics: AppAnalytics, accountId: string, path: string, query: ReportQuery): Promise<ReportAnswer> {
  return await (await analytics.get()).classicReport(accountId, path, query)
}

/**
 * The query as the signature saw it: decoded, `+` as a space, one value per key (a repeated key was
 * already a 400). The engine leaves `api_key`, `expires` and `signature` out of `next_page`.
 */
function reportQuery (request: FastifyRequest): ReportQuery {
  return Object.fromEntries(request.queryPairs ?? [])
}

function requestPath (request: FastifyRequest): string {
  const url = request.raw.url ?? '/'
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}
