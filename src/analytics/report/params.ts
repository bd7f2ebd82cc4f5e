import { ApiError, validationError } from '../../errors/api-error.ts'
import { DIMENSIONS, METRICS, TIME_SEGMENTS, type Dimension, type Metric, type TimeSegment } from '../model.ts'
import { filterKey, parseFilters, type FilterNode } from './filters.ts'
import { parseReportTime } from './segments.ts'

/** A report's query parameters, decoded (`+` already a space), one value per key. */
export type ReportQuery = Record<string, string | undefined>

export interface SortKey {
  /** A metric, or one of the report's dimensions. */
  field: Metric | Dimension
  descending: boolean
}

export interface ReportParams {
  /** Requested range in ms, end exclusive (before widening to whole segments). */
  start: number
  end: number
  dimensions: Dimension[]
  metrics: Metric[]
  filters: FilterNode | undefined
  segment: TimeSegment
  sort: SortKey[]
  limit: number
  pageToken: string | undefined
}

export const MAX_LIMIT = 1000
export const MAX_RANGE_DAYS = 366
export const MAX_DIMENSIONS = 3

function invalid (field: string, message: string): never {
  throw validationError(message, { [field]: [message] })
}

function list (text: string | undefined): string[] {
  return (text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')
}

function time (query: ReportQuery, field: 'start_date' | 'end_date'): number | undefined {
  const text = query[field]
  if (text === undefined || text === '') return undefined
  const ms = parseReportTime(text)
  if (ms === undefined) invalid(field, `${field} must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ).`)
  return ms
}

function dimensions (text: string | undefined): Dimension[] {
  const names = list(text)
  for (const [i, name] of names.entries()) {
    if (!(DIMENSIONS as readonly string[]).includes(name)) invalid('dimensions', `dimensions: unknown dimension '${name}'; use ${DIMENSIONS.join(', ')}.`)
    if (names.indexOf(name) !== i) invalid('dimensions', `dimensions: '${name}' is listed twice.`)
  }
  if (names.length > MAX_DIMENSIONS) invalid('dimensions', `dimensions: at most ${MAX_DIMENSIONS} dimensions.`)
  return names as Dimension[]
}

function metrics (text: string | undefined): Metric[] {
  const names = list(text)
  if (names.length === 0) return [...METRICS]
  for (const name of names) {
    if (!(METRICS as readonly string[]).includes(name)) invalid('metrics', `metrics: unknown metric '${name}'; use ${METRICS.join(', ')}.`)
  }
  return [...new Set(names)] as Metric[]
}

/**
 * `+name` is ascending, `name` or `-name` descending. A `+` that arrived unencoded in the query string
 * was decoded to a space, so a leading space means ascending too.
 */
function sort (text: string | undefined, dims: Dimension[], chosen: Metric[]): SortKey[] {
  const keys = (text ?? '').split(',').filter((s) => s.trim() !== '').map((raw): SortKey => {
    const ascending = /^\s*\+|^\s/.test(raw)
    const field = raw.trim().replace(/^[+-]/, '')
    if (!(METRICS as readonly string[]).includes(field) && !(dims as string[]).includes(field)) {
      invalid('sort', `sort: '${field}' is neither a metric nor one of the report's dimensions.`)
    }
    return { field: field as Metric | Dimension, descending: !ascending }
  })
  // Default: the first chosen metric, largest first (the v2 reports' "top N").
  return keys.length > 0 ? keys : [{ field: chosen[0], descending: true }]
}

function limit (text: string | undefined): number {
  if (text === undefined || text === '') return MAX_LIMIT
  const n = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN
  if (!(n >= 1 && n <= MAX_LIMIT)) throw new ApiError('limit_invalid', `limit must be an integer from 1 to ${MAX_LIMIT}.`)
  return n
}

/** Validates report parameters (docs/analytics.md, "Reports"); `now` gives the default end (tomorrow, UTC). Throws 400s. */
export function parseReportParams (query: ReportQuery, now: number): ReportParams {
  const start = time(query, 'start_date')
  if (start === undefined) invalid('start_date', 'start_date is required (YYYY-MM-DD).')
  const end = time(query, 'end_date') ?? (Math.floor(now / 86_400_000) + 1) * 86_400_000
  if (end <= start) invalid('end_date', 'end_date must be after start_date (it is exclusive).')
  if (end - start > MAX_RANGE_DAYS * 86_400_000) invalid('end_date', `The date range must not exceed ${MAX_RANGE_DAYS} days.`)
  const segment = query.time_segment === undefined || query.time_segment === '' ? 'total' : query.time_segment
  if (!(TIME_SEGMENTS as readonly string[]).includes(segment)) invalid('time_segment', `time_segment must be one of ${TIME_SEGMENTS.join(', ')}.`)
  const dims = dimensions(query.dimensions)
  const chosen = metrics(query.metrics)
  const pageToken = query.page_token ?? query.paging_token
  return {
    start,
    end,
    dimensions: dims,
    metrics: chosen,
    filters: parseFilters(query.filters ?? ''),
    segment: segment as TimeSegment,
    sort: sort(query.sort, dims, chosen),
    limit: limit(query.limit),
    pageToken: pageToken === '' ? undefined : pageToken
  }
}

/** What a page token is bound to: everything but the limit and the token itself. */
export function reportFingerprintParts (accountId: string, p: ReportParams): unknown[] {
  return [accountId, p.start, p.end, p.dimensions, p.metrics, filterKey(p.filters), p.segment, p.sort.map((s) => `${s.descending ? '-' : '+'}${s.field}`)]
}
