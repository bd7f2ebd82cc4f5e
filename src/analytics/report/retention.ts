import { validationError } from '../../errors/api-error.ts'
import { EVENT_KIND } from '../model.ts'
import type { AnalyticsStore } from '../store/store.ts'
import { parseReportParams, type ReportQuery } from './params.ts'
import { formatTime, sqlTime } from './segments.ts'

/** `GET /v2/analytics/retention` (docs/analytics.md, "Retention"). */
export interface RetentionAnswer {
  asset_id: string
  start_date: string
  end_date: string
  /** Sessions of the asset that started or sent a heartbeat with a position. */
  views: number
  /** 101 points, percent 0 to 100 of the asset's duration: the share of views that reached it. */
  retention: Array<{ percent: number, share: number }>
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4

/**
 * The share of views still watching at each percent of the duration, from heartbeats: a view reached
 * the largest `position_ms / duration_ms` of its `playhead_update` events (a start alone reaches 0 %).
 */
export async function retentionReport (store: AnalyticsStore, accountId: string, query: ReportQuery, now: number): Promise<RetentionAnswer> {
  const assetId = query.asset_id
  if (assetId === undefined || assetId === '' || assetId.length > 128) {
    throw validationError('asset_id is required (at most 128 characters).', { asset_id: ['asset_id is required (at most 128 characters).'] })
  }
  const { start, end } = parseReportParams({ start_date: query.start_date, end_date: query.end_date }, now)
  const div = store.dialect === 'duckdb' ? '//' : '/'
  const rows = await store.query(`WITH views AS (
    SELECT session_id, MAX(CASE WHEN kind = ${EVENT_KIND.playhead_update} AND value2 > 0 THEN LEAST(100, (value * 100) ${div} value2) ELSE 0 END) AS reached
    FROM analytics_events
    WHERE account_id = $1 AND asset_id = $2 AND time >= CAST($3 AS timestamp) AND time < CAST($4 AS timestamp)
      AND (kind = ${EVENT_KIND.video_start} OR (kind = ${EVENT_KIND.playhead_update} AND value2 IS NOT NULL))
    GROUP BY session_id
  )
  SELECT reached, COUNT(*) AS n FROM views GROUP BY reached`, [accountId, assetId, sqlTime(start), sqlTime(end)])
  const reachedAt = new Array<number>(101).fill(0)
  for (const row of rows) reachedAt[Number(row.reached)] += Number(row.n)
  const views = reachedAt.reduce((a, b) => a + b, 0)
  const retention: RetentionAnswer['retention'] = []
  let still = views
  for (let percent = 0; percent <= 100; percent++) {
    retention.push({ percent, share: views === 0 ? 0 : round4(still / views) })
    still -= reachedAt[percent]
  }
  return { asset_id: assetId, start_date: formatTime(start), end_date: formatTime(end), views, retention }
}
