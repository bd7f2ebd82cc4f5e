import { validationError } from '../../errors/api-error.ts'
import { EVENT_KIND } from '../model.ts'
import type { AnalyticsStore, SqlParam } from '../store/store.ts'
import { parseReportParams, type ReportQuery } from './params.ts'
import { formatTime, sqlTime } from './segments.ts'

/** `GET /v2/analytics/failures` (docs/analytics.md, "Playback failures"). */
export interface FailuresAnswer {
  start_date: string
  end_date: string
  /** Fatal errors by code and message, the most frequent first (at most `FAILURE_GROUPS`). */
  failures: Array<{ code: string, message: string, count: number, views: number, last_seen: string }>
}

/** The most groups a failures answer lists. */
export const FAILURE_GROUPS = 100

const EPOCH_MS = {
  duckdb: 'epoch_ms(MAX(time))',
  postgres: 'CAST(extract(epoch FROM MAX(time)) * 1000 AS bigint)'
} as const

/**
 * The playback failures in a range: the `error` events marked fatal, grouped by their code and message,
 * with how many there were, in how many views (sessions), and when the last one happened; for one asset
 * when `asset_id` is given.
 */
export async function failuresReport (store: AnalyticsStore, accountId: string, query: ReportQuery, now: number): Promise<FailuresAnswer> {
  const assetId = query.asset_id
  if (assetId !== undefined && (assetId === '' || assetId.length > 128)) {
    throw validationError('asset_id must be 1 to 128 characters.', { asset_id: ['asset_id must be 1 to 128 characters.'] })
  }
  const { start, end } = parseReportParams({ start_date: query.start_date, end_date: query.end_date }, now)
  const params: SqlParam[] = [accountId, sqlTime(start), sqlTime(end)]
  if (assetId !== undefined) params.push(assetId)
  const rows = await store.query(`SELECT COALESCE(code, '') AS code, COALESCE(message, '') AS message, COUNT(*) AS n,
      COUNT(DISTINCT session_id) AS views, ${EPOCH_MS[store.dialect]} AS last_ms
    FROM analytics_events
    WHERE account_id = $1 AND time >= CAST($2 AS timestamp) AND time < CAST($3 AS timestamp) AND kind = ${EVENT_KIND.error_fatal}
      ${assetId === undefined ? '' : 'AND asset_id = $4'}
    GROUP BY 1, 2
    ORDER BY n DESC, code, message
    LIMIT ${FAILURE_GROUPS}`, params)
  return {
    start_date: formatTime(start),
    end_date: formatTime(end),
    failures: rows.map((row) => ({
      code: String(row.code), message: String(row.message), count: Number(row.n), views: Number(row.views), last_seen: formatTime(Number(row.last_ms))
    }))
  }
}
