import { validationError } from '../../errors/api-error.ts'
import type { ReportQuery } from './params.ts'
import { formatTime, parseReportTime } from './segments.ts'

/**
 * The classic (v2) path form older clients use (docs/analytics.md, "The classic path form"):
 *
 *   /v2/analytics/reports/{account | asset/ID}/performance/{dimension[/value]}/{START...END | DAY}
 *
 * mapped onto the parameters of `GET /v2/analytics/reports`, so both forms give the same numbers in
 * the same answer shape. Dimensions: `total`, `videos` (asset), `countries`, `domains`,
 * `device_types`; a value after one (`countries/US`) filters on it. Query: `breakdown_by`
 * (day|week|month) → time_segment, `order_by` → sort (`plays` is plays_requested), `limit`, `page_token`.
 */
const DIMENSIONS = new Map<string, string | undefined>([
  ['total', undefined], ['videos', 'asset'], ['countries', 'country'], ['domains', 'domain'], ['device_types', 'device_type']
])
const ORDER_BY = new Map<string, string>([
  ['plays', 'plays_requested'], ['displays', 'displays'], ['video_starts', 'video_starts'], ['time_watched', 'time_watched'], ['replays', 'replays']
])
const SHAPE = '/v2/analytics/reports/{account|asset/ID}/performance/{total|videos|countries|domains|device_types}[/value]/{YYYY-MM-DD[...YYYY-MM-DD]}'

function invalid (field: string, message: string): never {
  throw validationError(message, { [field]: [message] })
}

const quote = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

function dateRange (text: string): { start_date: string, end_date: string } {
  const [from, to, extra] = text.split('...')
  const start = parseReportTime(from)
  const end = to === undefined ? (start === undefined ? undefined : start + 86_400_000) : parseReportTime(to)
  if (extra !== undefined || start === undefined || end === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(from) || (to !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(to))) {
    invalid('date_range', `The date range must be YYYY-MM-DD or YYYY-MM-DD...YYYY-MM-DD (end exclusive), not '${text}'.`)
  }
  return { start_date: formatTime(start).slice(0, 10), end_date: formatTime(end).slice(0, 10) }
}

/**
 * Maps a classic report path (the whole path, or the part after `/v2/analytics/reports/`, still
 * percent-encoded) and its query to report parameters. Throws a 400 naming what is wrong.
 */
export function classicReportQuery (path: string, query: ReportQuery = {}): ReportQuery {
  const parts = path.replace(/^\/?v2\/analytics\/reports\//, '').replace(/^\//, '').split('/').filter((s) => s !== '').map((s) => {
    try { return decodeURIComponent(s) } catch { return invalid('path', `The report path must look like ${SHAPE}.`) }
  })
  const filters: string[] = []
  let i = 0
  if (parts[i] === 'account') i++
  else if (parts[i] === 'asset' && parts[i + 1] !== undefined) { filters.push(`asset==${quote(parts[i + 1])}`); i += 2 } else invalid('path', `The report path must look like ${SHAPE}.`)
  const report = parts[i++]
  if (report !== 'performance') invalid('path', `Only the performance report is available${report === undefined ? '' : `, not '${report}'`}.`)
  const dimensionName = parts[i++]
  if (dimensionName === undefined || !DIMENSIONS.has(dimensionName)) invalid('path', `The report path must look like ${SHAPE}.`)
  const dimension = DIMENSIONS.get(dimensionName)
  if (parts.length - i === 2 && dimension !== undefined) filters.push(`${dimension}==${quote(parts[i++])}`)
  if (parts.length - i !== 1) invalid('path', `The report path must look like ${SHAPE}.`)
  const range = dateRange(parts[i])

  const out: ReportQuery = { ...range }
  if (dimension !== undefined) out.dimensions = dimension
  if (filters.length > 0) out.filters = filters.join(';')
  const breakdown = query.breakdown_by
  if (breakdown !== undefined && breakdown !== '') {
    if (!['day', 'week', 'month'].includes(breakdown)) invalid('breakdown_by', 'breakdown_by must be one of day, week, month.')
    out.time_segment = breakdown
  }
  const orderBy = query.order_by
  if (orderBy !== undefined && orderBy !== '') {
    const metric = ORDER_BY.get(orderBy)
    if (metric === undefined) invalid('order_by', `order_by must be one of ${[...ORDER_BY.keys()].join(', ')}.`)
    out.sort = metric
  }
  for (const key of ['limit', 'page_token', 'paging_token', 'metrics'] as const) {
    if (query[key] !== undefined) out[key] = query[key]
  }
  return out
}
