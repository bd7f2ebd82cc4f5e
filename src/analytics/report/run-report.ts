import { createHash } from 'node:crypto'
import { invalidPageToken, type PageTokens } from '../../paging/index.ts'
import type { AnalyticsResources, Metric } from '../model.ts'
import { DAILY_ROLLUP } from '../store/rollup.ts'
import type { AnalyticsStore } from '../store/store.ts'
import { filterDimensions } from './filters.ts'
import { parseReportParams, reportFingerprintParts, type ReportParams, type ReportQuery } from './params.ts'
import { formatTime, segmentEnd, widen } from './segments.ts'
import { compileReport, type ReportSource } from './sql.ts'

export interface ReportRow {
  group: Record<string, string>
  metrics: Partial<Record<Metric, number | null>>
}

export interface ReportSegment {
  start_date: string
  end_date: string
  data: ReportRow[]
}

/** A report's answer (docs/analytics.md, "Reports"). */
export interface ReportAnswer {
  results: ReportSegment[]
  /** Rows (segment × group) in the whole report, over all pages. */
  total_count: number
  /** Relative URL of the next page, absent on the last (docs/api.md, "Paging"). */
  next_page?: string
}

export interface ReportContext {
  store: AnalyticsStore
  resources: Pick<AnalyticsResources, 'labelsOf' | 'labelNames'>
  /**
   * Report page tokens: a row offset bound to a fingerprint of the report's parameters. Reports are
   * aggregates computed whole on every request, so an offset costs nothing extra to honour.
   */
  tokens: PageTokens
  now: () => number
}

export interface ReportOptions {
  /** The request path, for `next_page` (default `/v2/analytics/reports`). */
  path?: string
  /** The query parameters to repeat in `next_page` (default: the report query itself). */
  linkQuery?: ReportQuery
  /** `raw` reads the events even where rollups would answer (tests and the benchmark compare the two). */
  source?: 'raw' | 'auto'
}

const HOUR = 3_600_000
const DAY = 86_400_000

/**
 * Where a report reads (docs/analytics.md, "Rollups"): the daily rollup when it groups and filters only
 * by what that rollup keeps and its range, widened to whole segments, starts and ends at midnight UTC
 * (an `hour` segment cannot come from days); else the hourly rollup when the range starts and ends on
 * the hour; else the raw events.
 */
export function reportSource (store: Pick<AnalyticsStore, 'rollups'>, p: ReportParams, wanted: ReportOptions['source'] = 'auto'): ReportSource {
  if (wanted === 'raw' || !store.rollups) return 'raw'
  const range = widen(p.start, p.end, p.segment)
  const used = [...p.dimensions, ...filterDimensions(p.filters)]
  if (p.segment !== 'hour' && range.start % DAY === 0 && range.end % DAY === 0 && used.every((d) => DAILY_ROLLUP.dimensions.has(d))) return 'daily'
  return range.start % HOUR === 0 && range.end % HOUR === 0 ? 'hourly' : 'raw'
}

// Signing parameters never appear in next_page; limit and the token are appended last, in that order.
const NOT_LINKED = new Set(['api_key', 'expires', 'signature', 'limit', 'page_token', 'paging_token'])

function nextPageUrl (path: string, query: ReportQuery, limit: number, token: string): string {
  const pairs = Object.entries(query).filter(([k, v]) => v !== undefined && !NOT_LINKED.has(k)) as Array<[string, string]>
  pairs.push(['limit', String(limit)], ['page_token', token])
  return `${path}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`
}

/** What a report's token is bound to: the account and every parameter but the limit and the token. */
function fingerprintOf (parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16)
}

/** The row offset a report token carries (only this server signs them; checked all the same). */
function offsetIn (position: unknown[]): number {
  const [offset] = position
  if (position.length !== 1 || typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) throw invalidPageToken('forged')
  return offset
}

const round = (x: number, places: number): number => Math.round(x * 10 ** places) / 10 ** places

/** Counts arrive as bigint (DuckDB) or numeric strings (PostgreSQL); ratios as doubles. */
const PLACES: Partial<Record<Metric, number>> = {
  avg_time_watched_per_video: 0, avg_rendition_height: 0, avg_bitrate: 0,
  play_conversion_rate: 4, video_conversion_rate: 4, rebuffer_ratio: 4, rebuffer_frequency: 4, playback_failure_rate: 4,
  viewer_experience_score: 1
}
function metricValue (metric: Metric, raw: unknown): number | null {
  // Only the startup percentiles can be NULL: a group without any startup time has none.
  if (raw === null || raw === undefined) return null
  const n = Number(raw)
  const places = PLACES[metric]
  return places === undefined ? n : round(n, places)
}

/**
 * Rows into segments. A `label` group keeps the label's id under `label`, as filters and sort use it,
 * and adds its name as `label_name` (the id again for `unknown`, the assets without labels).
 */
function shape (rows: Array<Record<string, unknown>>, p: ReportParams, labelNames: Map<string, string> | undefined): ReportSegment[] {
  const segments: ReportSegment[] = []
  let last: number | undefined
  for (const row of rows) {
    const seg = Number(row.seg)
    if (seg !== last || segments.length === 0) {
      last = seg
      segments.push(p.segment === 'total'
        ? { start_date: formatTime(p.start), end_date: formatTime(p.end), data: [] }
        : { start_date: formatTime(seg), end_date: formatTime(segmentEnd(seg, p.segment)), data: [] })
    }
    const group: Record<string, string> = {}
    p.dimensions.forEach((dim, i) => {
      const value = String(row[`d${i}`])
      group[dim] = value
      if (dim === 'label' && labelNames !== undefined) group.label_name = labelNames.get(value) ?? value
    })
    const metrics: Partial<Record<Metric, number | null>> = {}
    for (const metric of p.metrics) metrics[metric] = metricValue(metric, row[metric])
    segments.at(-1)?.data.push({ group, metrics })
  }
  // The total always has its one entry, so `results[0]` exists even when nothing happened.
  if (segments.length === 0 && p.segment === 'total') segments.push({ start_date: formatTime(p.start), end_date: formatTime(p.end), data: [] })
  return segments
}

/**
 * Runs a report for one account. Every segment × group row is one unit of paging: `limit` rows a
 * page, in segment order then the requested sort. A segment appears on a page only with its rows.
 */
export async function runReport (context: ReportContext, accountId: string, query: ReportQuery, options: ReportOptions = {}): Promise<ReportAnswer> {
  const p = parseReportParams(query, context.now())
  const fingerprint = fingerprintOf(reportFingerprintParts(accountId, p))
  const offset = p.pageToken === undefined ? 0 : offsetIn(context.tokens.decode(p.pageToken, fingerprint))
  const needsLabels = p.dimensions.includes('label') || filterDimensions(p.filters).has('label')
  const labels = needsLabels ? await context.resources.labelsOf(accountId) : undefined
  const labelNames = p.dimensions.includes('label') ? await context.resources.labelNames?.(accountId) : undefined
  const compiled = compileReport(context.store.dialect, accountId, p, labels, offset, reportSource(context.store, p, options.source))
  const rows = await context.store.query(compiled.sql, compiled.params)
  const total = rows.length > 0
    ? Number(rows[0].total_count)
    : offset === 0 ? 0 : Number((await context.store.query(compiled.countSql, compiled.params))[0].total_count)
  const answer: ReportAnswer = { results: shape(rows, p, labelNames), total_count: total }
  if (offset + rows.length < total) {
    answer.next_page = nextPageUrl(options.path ?? '/v2/analytics/reports', options.linkQuery ?? query, p.limit, context.tokens.encode([offset + rows.length], fingerprint))
  }
  return answer
}
