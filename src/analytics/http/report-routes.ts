import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { AnalyticsRouteDeps } from './route-deps.ts'
import { callerOf } from '../../http/request-types.ts'
import { dictionary } from '../../lib/dictionary.ts'
import type { ReportAnswer, ReportQuery } from '../index.ts'
import type { AppAnalytics } from '../app-analytics.ts'
import * as S from './analytics-schemas.ts'
import { EXPORT_CONTENT_TYPES, exportFileName } from '../export/export-events.ts'

export const REPORTS_PATH = '/v2/analytics/reports'
export const RETENTION_PATH = '/v2/analytics/retention'
export const EXPORTS_PATH = '/v2/analytics/exports'
export const FAILURES_PATH = '/v2/analytics/failures'

/**
 * `GET /v2/analytics/reports` and the classic path form `/v2/analytics/reports/account/performance/…`
 * (docs/analytics.md). 5 credits each (src/credits/cost-table.ts); every role that may read analytics.
 */
export const reportRoutes: FastifyPluginAsyncTypebox<{ ctx: AnalyticsRouteDeps }> = async (app, { ctx }) => {
  const config = { permission: ['analytics', 'read'] as const }
  const tags = ['analytics']

  app.get(REPORTS_PATH, {
    config,
    schema: {
      operationId: 'getReport',
      summary: 'Run a report',
      description: 'Metrics (plays, displays, time watched…) grouped by up to three dimensions, per time segment, over a date range; ' +
        'filtered with `filters` and sorted with `sort`, paged like the lists. Costs 5 credits.',
      tags,
      querystring: S.ReportQuery,
      response: { 200: S.ReportAnswer, ...S.AnalyticsErrors }
    }
  }, async (req) => await report(ctx.analytics, callerOf(req).accountId, reportQuery(req.query)))

  app.get(RETENTION_PATH, {
    config,
    schema: {
      operationId: 'getRetention',
      summary: 'The retention curve of an asset',
      description: 'The share of views still watching at each percent of the asset\'s duration, from player heartbeats (docs/analytics.md, "Retention").',
      tags,
      querystring: S.RetentionQuery,
      response: { 200: S.RetentionAnswer, ...S.AnalyticsErrors }
    }
  }, async (req) => await (await ctx.analytics.get()).retention(callerOf(req).accountId, reportQuery(req.query)))

  app.get(FAILURES_PATH, {
    config,
    schema: {
      operationId: 'getFailures',
      summary: 'Playback failures with their messages',
      description: 'The fatal errors players reported in a range (all assets, or one), grouped by code and message, the most frequent first (docs/analytics.md, "Playback failures").',
      tags,
      querystring: S.FailuresQuery,
      response: { 200: S.FailuresAnswer, ...S.AnalyticsErrors }
    }
  }, async (req) => await (await ctx.analytics.get()).failures(callerOf(req).accountId, reportQuery(req.query)))

  app.get(EXPORTS_PATH, {
    config: { permission: ['analytics', 'import'] as const },
    schema: {
      operationId: 'exportEvents',
      summary: 'Export the raw events',
      description: 'Every stored event of the account in the range, oldest first, streamed as Parquet (written by DuckDB), CSV or NDJSON. ' +
        'Administrators only; no limit on the range beyond the events kept.',
      tags,
      querystring: S.ExportQuery,
      response: { 200: S.ExportFile, ...S.AnalyticsErrors }
    }
  }, async (req, reply) => {
    const { params, body, size } = await (await ctx.analytics.get()).exportEvents(callerOf(req).accountId, reportQuery(req.query))
    // Parquet is written before it is sent, so its length is known (the CLI's progress bar shows a fraction).
    if (size !== undefined) reply.header('content-length', size)
    return await reply
      .type(EXPORT_CONTENT_TYPES[params.format])
      .header('content-disposition', `attachment; filename="${exportFileName(params)}"`)
      // A stream is sent as it is read, never serialised: the 200's schema documents the file for OpenAPI.
      .send(body as unknown as string)
  })

  app.get(`${REPORTS_PATH}/*`, {
    config,
    schema: {
      operationId: 'getClassicReport',
      summary: 'Run a report (classic path form)',
      description: 'The same reports addressed by path, as older clients of this API family do: ' +
        '`account/performance/countries/2026-11-01...2026-11-30`, `asset/<embed code>/performance/total/2026-11-22`. Costs 5 credits.',
      tags,
      params: S.ClassicReportParams,
      querystring: S.ClassicReportQuery,
      response: { 200: S.ReportAnswer, ...S.AnalyticsErrors }
    }
  }, async (req) => await classicReport(ctx.analytics, callerOf(req).accountId, requestPath(req), reportQuery(req.query)))
}

export async function report (analytics: AppAnalytics, accountId: string, query: ReportQuery): Promise<ReportAnswer> {
  return await (await analytics.get()).report(accountId, query, { path: REPORTS_PATH })
}

/** `path` is the request path, still percent-encoded: `next_page` repeats it as the client sent it. */
export async function classicReport (analytics: AppAnalytics, accountId: string, path: string, query: ReportQuery): Promise<ReportAnswer> {
  return await (await analytics.get()).classicReport(accountId, path, query)
}

/**
 * The validated query: decoded, `+` as a space, one value per key (a repeated key was already a 400).
 * The engine leaves `api_key`, `expires` and `signature` out of `next_page`.
 */
function reportQuery (query: Readonly<Record<string, string | undefined>>): ReportQuery {
  return dictionary(query)
}

function requestPath (request: FastifyRequest): string {
  const url = request.raw.url ?? '/'
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}
