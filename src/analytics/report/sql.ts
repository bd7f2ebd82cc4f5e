import { COUNTED_KINDS, EVENT_KIND, UNKNOWN, type Dimension, type Metric } from '../model.ts'
import type { SqlParam, StoreDialect } from '../store/store.ts'
import type { FilterNode } from './filters.ts'
import type { ReportParams } from './params.ts'
import { sqlTime, widen } from './segments.ts'

/**
 * One SQL text for both engines; the dialect branches are named here and nowhere else: the segment
 * start as epoch milliseconds, the collation of the joined label column, and how distinct viewers
 * are counted. PostgreSQL's COUNT(DISTINCT) sorts each group and runs on one core; SELECT DISTINCT
 * then COUNT hashes in parallel, about twice as fast there (and slower in DuckDB, which keeps COUNT(DISTINCT)).
 */
const DIALECT = {
  duckdb: {
    segmentMs: (unit: string) => `epoch_ms(date_trunc('${unit}', e.time))`,
    collate: (expr: string) => expr,
    twoPhaseDistinct: false
  },
  postgres: {
    segmentMs: (unit: string) => `CAST(extract(epoch FROM date_trunc('${unit}', e.time)) * 1000 AS bigint)`,
    collate: (expr: string) => `(${expr} COLLATE "C")`,
    twoPhaseDistinct: true
  }
} satisfies Record<StoreDialect, unknown>

const COLUMN: Record<Exclude<Dimension, 'label'>, string> = {
  asset: 'e.asset_id', player_id: 'e.player_id', country: 'e.country', device_type: 'e.device_type', os: 'e.os', browser: 'e.browser', domain: 'e.domain'
}

type Ratio = 'avg_time_watched_per_video' | 'play_conversion_rate' | 'video_conversion_rate'
type Base = Exclude<Metric, Ratio>

const count = (kind: number): string => `COUNT(*) FILTER (WHERE kind = ${kind})`
/**
 * Metric definitions (docs/analytics.md): counts of events by kind, the sum of `time_watched` values
 * in ms, exact distinct viewers, and ratios that are 0 when their denominator is 0.
 */
const BASE: Record<Base, string> = {
  displays: count(EVENT_KIND.display),
  plays_requested: count(EVENT_KIND.play_requested),
  video_starts: count(EVENT_KIND.video_start),
  replays: count(EVENT_KIND.replay),
  playthrough_25: count(EVENT_KIND.playthrough_25),
  playthrough_50: count(EVENT_KIND.playthrough_50),
  playthrough_75: count(EVENT_KIND.playthrough_75),
  playthrough_100: count(EVENT_KIND.playthrough_100),
  time_watched: `CAST(COALESCE(SUM(value) FILTER (WHERE kind = ${EVENT_KIND.time_watched}), 0) AS BIGINT)`,
  uniq_plays_requested: `COUNT(DISTINCT viewer_id) FILTER (WHERE kind = ${EVENT_KIND.play_requested})`
}
const RATIO: Record<Ratio, [Base, Base]> = {
  avg_time_watched_per_video: ['time_watched', 'video_starts'],
  play_conversion_rate: ['plays_requested', 'displays'],
  video_conversion_rate: ['video_starts', 'plays_requested']
}
const ratio = (metric: Ratio): string => {
  const [numerator, denominator] = RATIO[metric]
  return `CASE WHEN ${denominator} = 0 THEN 0 ELSE CAST(${numerator} AS DOUBLE PRECISION) / ${denominator} END AS ${metric}`
}

/** Only what the report shows or sorts by is computed: distinct viewers alone cost as much as the rest. */
function neededMetrics (p: ReportParams): { base: Base[], ratios: Ratio[] } {
  const wanted = new Set<string>([...p.metrics, ...p.sort.map((s) => s.field)])
  const ratios = (Object.keys(RATIO) as Ratio[]).filter((m) => wanted.has(m))
  const base = new Set((Object.keys(BASE) as Base[]).filter((m) => wanted.has(m)))
  for (const m of ratios) RATIO[m].forEach((b) => base.add(b))
  return { base: [...base], ratios }
}

export interface CompiledReport {
  /** The page: segment start `seg`, dimensions `d0…`, every metric, and `total_count`. */
  sql: string
  /** How many rows the whole report has (for a page past the end, where the window count is absent). */
  countSql: string
  params: SqlParam[]
}

/** Label ids per asset, as the caller's `labelsOf` gives them (ancestors included). */
export type AssetLabels = Map<string, string[]>

export function compileReport (dialect: StoreDialect, accountId: string, p: ReportParams, labels: AssetLabels | undefined, offset: number): CompiledReport {
  const d = DIALECT[dialect]
  const params: SqlParam[] = []
  const bind = (value: SqlParam): string => { params.push(value); return `$${params.length}` }
  const labelIsDimension = p.dimensions.includes('label')
  const labelColumn = d.collate(`COALESCE(l.label_id, '${UNKNOWN.label}')`)
  const range = widen(p.start, p.end, p.segment)

  const compare = (node: FilterNode): string => {
    if (node.kind !== 'compare') return `(${node.items.map(compare).join(node.kind === 'and' ? ' AND ' : ' OR ')})`
    const op = node.op === '==' ? '=' : '<>'
    if (node.dimension !== 'label') return `${COLUMN[node.dimension]} ${op} ${bind(node.value)}`
    // With `label` as a dimension, a label filter tests the group's label; otherwise whether the asset has it.
    if (labelIsDimension) return `${labelColumn} ${op} ${bind(node.value)}`
    const assets = [...(labels ?? new Map<string, string[]>())].filter(([, ids]) => ids.includes(node.value)).map(([asset]) => asset)
    return `e.asset_id ${node.op === '==' ? 'IN' : 'NOT IN'} (SELECT unnest(${bind(assets)}::text[]))`
  }

  const account = bind(accountId)
  const from = bind(sqlTime(range.start))
  const to = bind(sqlTime(range.end))
  let labelCte = ''
  let labelJoin = ''
  if (labelIsDimension) {
    const pairs = [...(labels ?? new Map<string, string[]>())].flatMap(([asset, ids]) => ids.map((id) => [asset, id]))
    labelCte = `labels AS (SELECT unnest(${bind(pairs.map((x) => x[0]))}::text[]) AS asset_id, unnest(${bind(pairs.map((x) => x[1]))}::text[]) AS label_id),`
    labelJoin = 'LEFT JOIN labels l ON l.asset_id = e.asset_id'
  }
  const dims = p.dimensions.map((dim, i) => `${dim === 'label' ? labelColumn : COLUMN[dim]} AS d${i}`)
  const { base, ratios } = neededMetrics(p)
  // Columnar engines read only the columns a query names.
  const columns = ['e.kind', ...(base.includes('time_watched') ? ['e.value'] : []), ...(base.includes('uniq_plays_requested') ? ['e.viewer_id'] : [])]
  const segment = p.segment === 'total' ? 'CAST(0 AS BIGINT)' : d.segmentMs(p.segment)
  const groupBy = ['seg', ...p.dimensions.map((_, i) => `d${i}`)].join(', ')
  const where = [
    `e.account_id = ${account}`,
    `e.time >= CAST(${from} AS timestamp)`, `e.time < CAST(${to} AS timestamp)`,
    `e.kind BETWEEN ${COUNTED_KINDS.min} AND ${COUNTED_KINDS.max}`,
    ...(p.filters === undefined ? [] : [compare(p.filters)])
  ].join('\n      AND ')

  const twoPhase = d.twoPhaseDistinct && base.includes('uniq_plays_requested')
  const aggregates = [groupBy, ...base.filter((m) => !twoPhase || m !== 'uniq_plays_requested').map((m) => `${BASE[m]} AS ${m}`)]
  // ev is read twice in the two-phase form: NOT MATERIALIZED keeps PostgreSQL from spilling it to a temporary table.
  const body = `WITH ${labelCte}
  ev AS ${twoPhase ? 'NOT MATERIALIZED ' : ''}(
    SELECT ${[...columns, `${segment} AS seg`, ...dims].join(', ')}
    FROM analytics_events e ${labelJoin}
    WHERE ${where}
  ),
  agg AS (SELECT ${aggregates.join(',\n    ')}
    FROM ev GROUP BY ${groupBy}),${twoPhase
    ? `
  uniq AS (SELECT ${groupBy}, COUNT(*) AS uniq_plays_requested
    FROM (SELECT DISTINCT ${groupBy}, viewer_id FROM ev WHERE kind = ${EVENT_KIND.play_requested}) viewers GROUP BY ${groupBy}),
  report AS (SELECT ${['agg.*', 'COALESCE(uniq.uniq_plays_requested, 0) AS uniq_plays_requested', ...ratios.map(ratio)].join(',\n    ')}
    FROM agg LEFT JOIN uniq USING (${groupBy}))`
    : `
  report AS (SELECT ${['agg.*', ...ratios.map(ratio)].join(',\n    ')}
    FROM agg)`}`
  // Segments in time order, then the requested sort, then the dimensions: a total order, so pages never overlap.
  const order = ['seg', ...p.sort.map((s) => `${sortColumn(s.field, p.dimensions)} ${s.descending ? 'DESC' : 'ASC'}`), ...p.dimensions.map((_, i) => `d${i}`)]
  return {
    sql: `${body}
SELECT report.*, COUNT(*) OVER () AS total_count FROM report
ORDER BY ${order.join(', ')}
LIMIT ${p.limit} OFFSET ${offset}`,
    countSql: `${body}\nSELECT COUNT(*) AS total_count FROM report`,
    params
  }
}

function sortColumn (field: string, dimensions: Dimension[]): string {
  const i = dimensions.indexOf(field as Dimension)
  return i === -1 ? field : `d${i}`
}
