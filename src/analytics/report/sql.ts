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
type Dialect = typeof DIALECT[StoreDialect]

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

/**
 * The report as one query, built in the order it reads:
 *
 *   WITH [labels AS (asset → label pairs),]          only when `label` is a dimension
 *        ev AS (the account's counted events in the range, with seg and d0… computed),
 *        agg AS (the base metrics per seg and dimensions),
 *        [uniq AS (distinct viewers, two-phase),]     PostgreSQL, when uniq_plays_requested is needed
 *        report AS (agg [+ uniq] + ratios)
 *   SELECT … FROM report ORDER BY seg, sort, dimensions LIMIT/OFFSET
 *
 * Values are bound as $1, $2… in the order the builder meets them.
 */
export function compileReport (dialect: StoreDialect, accountId: string, p: ReportParams, labels: AssetLabels | undefined, offset: number): CompiledReport {
  const builder = new ReportSql(DIALECT[dialect], p, labels ?? new Map())
  const body = builder.withClause(accountId)
  return {
    sql: `${body}\nSELECT report.*, COUNT(*) OVER () AS total_count FROM report\nORDER BY ${builder.orderBy()}\nLIMIT ${p.limit} OFFSET ${offset}`,
    countSql: `${body}\nSELECT COUNT(*) AS total_count FROM report`,
    params: builder.params
  }
}

class ReportSql {
  readonly params: SqlParam[] = []
  private readonly labelIsDimension: boolean
  /** The label of a joined row; assets without labels count under `unknown`. */
  private readonly labelColumn: string
  private readonly metrics: { base: Base[], ratios: Ratio[] }
  /** Distinct viewers counted in a phase of their own (the dialect's choice, and only when asked for). */
  private readonly twoPhase: boolean
  /** `seg, d0, d1…`: what every aggregate groups by. */
  private readonly groupBy: string

  constructor (private readonly dialect: Dialect, private readonly p: ReportParams, private readonly labels: AssetLabels) {
    this.labelIsDimension = p.dimensions.includes('label')
    this.labelColumn = dialect.collate(`COALESCE(l.label_id, '${UNKNOWN.label}')`)
    this.metrics = neededMetrics(p)
    this.twoPhase = dialect.twoPhaseDistinct && this.metrics.base.includes('uniq_plays_requested')
    this.groupBy = ['seg', ...p.dimensions.map((_, i) => `d${i}`)].join(', ')
  }

  withClause (accountId: string): string {
    const account = this.bind(accountId)
    const range = widen(this.p.start, this.p.end, this.p.segment)
    const from = this.bind(sqlTime(range.start))
    const to = this.bind(sqlTime(range.end))
    const ctes = [
      ...(this.labelIsDimension ? [this.labelsCte()] : []),
      this.eventsCte(account, from, to),
      this.aggregateCte(),
      ...(this.twoPhase ? [this.uniqueViewersCte()] : []),
      this.reportCte()
    ]
    return `WITH ${ctes.join(',\n  ')}`
  }

  /** Segments in time order, then the requested sort, then the dimensions: a total order, so pages never overlap. */
  orderBy (): string {
    const sorts = this.p.sort.map((s) => `${this.sortColumn(s.field)} ${s.descending ? 'DESC' : 'ASC'}`)
    return ['seg', ...sorts, ...this.p.dimensions.map((_, i) => `d${i}`)].join(', ')
  }

  private bind (value: SqlParam): string {
    this.params.push(value)
    return `$${this.params.length}`
  }

  private labelsCte (): string {
    const pairs = [...this.labels].flatMap(([asset, ids]) => ids.map((id) => [asset, id]))
    const assets = this.bind(pairs.map((pair) => pair[0]))
    const labelIds = this.bind(pairs.map((pair) => pair[1]))
    return `labels AS (SELECT unnest(${assets}::text[]) AS asset_id, unnest(${labelIds}::text[]) AS label_id)`
  }

  private eventsCte (account: string, from: string, to: string): string {
    const { base } = this.metrics
    // Columnar engines read only the columns a query names.
    const columns = ['e.kind']
    if (base.includes('time_watched')) columns.push('e.value')
    if (base.includes('uniq_plays_requested')) columns.push('e.viewer_id')
    const segment = this.p.segment === 'total' ? 'CAST(0 AS BIGINT)' : this.dialect.segmentMs(this.p.segment)
    const dims = this.p.dimensions.map((dim, i) => `${dim === 'label' ? this.labelColumn : COLUMN[dim]} AS d${i}`)
    const where = [
      `e.account_id = ${account}`,
      `e.time >= CAST(${from} AS timestamp)`, `e.time < CAST(${to} AS timestamp)`,
      `e.kind BETWEEN ${COUNTED_KINDS.min} AND ${COUNTED_KINDS.max}`
    ]
    if (this.p.filters !== undefined) where.push(this.filter(this.p.filters))
    const labelJoin = this.labelIsDimension ? ' LEFT JOIN labels l ON l.asset_id = e.asset_id' : ''
    // ev is read twice in the two-phase form: NOT MATERIALIZED keeps PostgreSQL from spilling it to a temporary table.
    const materialized = this.twoPhase ? 'NOT MATERIALIZED ' : ''
    return `ev AS ${materialized}(
    SELECT ${[...columns, `${segment} AS seg`, ...dims].join(', ')}
    FROM analytics_events e${labelJoin}
    WHERE ${where.join('\n      AND ')}
  )`
  }

  /** A filter tree as a condition; with `label` as a dimension a label filter tests the group's label, otherwise whether the asset has it. */
  private filter (node: FilterNode): string {
    if (node.kind !== 'compare') return `(${node.items.map((item) => this.filter(item)).join(node.kind === 'and' ? ' AND ' : ' OR ')})`
    const op = node.op === '==' ? '=' : '<>'
    if (node.dimension !== 'label') return `${COLUMN[node.dimension]} ${op} ${this.bind(node.value)}`
    if (this.labelIsDimension) return `${this.labelColumn} ${op} ${this.bind(node.value)}`
    const assets = [...this.labels].filter(([, ids]) => ids.includes(node.value)).map(([asset]) => asset)
    return `e.asset_id ${node.op === '==' ? 'IN' : 'NOT IN'} (SELECT unnest(${this.bind(assets)}::text[]))`
  }

  private aggregateCte (): string {
    const counted = this.metrics.base.filter((m) => !(this.twoPhase && m === 'uniq_plays_requested'))
    const aggregates = [this.groupBy, ...counted.map((m) => `${BASE[m]} AS ${m}`)]
    return `agg AS (SELECT ${aggregates.join(',\n    ')}
    FROM ev GROUP BY ${this.groupBy})`
  }

  /** Distinct viewers as SELECT DISTINCT then COUNT: hashed in parallel on PostgreSQL. */
  private uniqueViewersCte (): string {
    return `uniq AS (SELECT ${this.groupBy}, COUNT(*) AS uniq_plays_requested
    FROM (SELECT DISTINCT ${this.groupBy}, viewer_id FROM ev WHERE kind = ${EVENT_KIND.play_requested}) viewers GROUP BY ${this.groupBy})`
  }

  private reportCte (): string {
    const columns = ['agg.*']
    if (this.twoPhase) columns.push('COALESCE(uniq.uniq_plays_requested, 0) AS uniq_plays_requested')
    columns.push(...this.metrics.ratios.map(ratio))
    const from = this.twoPhase ? `agg LEFT JOIN uniq USING (${this.groupBy})` : 'agg'
    return `report AS (SELECT ${columns.join(',\n    ')}
    FROM ${from})`
  }

  private sortColumn (field: string): string {
    const i = this.p.dimensions.indexOf(field as Dimension)
    return i === -1 ? field : `d${i}`
  }
}
