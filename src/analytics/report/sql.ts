import { COUNTED_KINDS, EVENT_KIND, QUALITY_KINDS, UNKNOWN, type Dimension, type Metric } from '../model.ts'
import { DAILY_ROLLUP, HOURLY_ROLLUP } from '../store/rollup.ts'
import type { SqlParam, StoreDialect } from '../store/store.ts'
import type { FilterNode } from './filters.ts'
import { bucketMidpointSql, bucketSql, hllEstimateSql, hllHashSql, hllRankSql, hllRegisterSql, SKETCH_DIALECT } from './sketches.ts'
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
    ...SKETCH_DIALECT.duckdb
  },
  postgres: {
    segmentMs: (unit: string) => `CAST(extract(epoch FROM date_trunc('${unit}', e.time)) * 1000 AS bigint)`,
    collate: (expr: string) => `(${expr} COLLATE "C")`,
    ...SKETCH_DIALECT.postgres
  }
} satisfies Record<StoreDialect, unknown>
type Dialect = typeof DIALECT[StoreDialect]

const COLUMN: Record<Exclude<Dimension, 'label'>, string> = {
  asset: 'e.asset_id', player_id: 'e.player_id', country: 'e.country', device_type: 'e.device_type', os: 'e.os', browser: 'e.browser', domain: 'e.domain'
}

/** Aggregates over the events of a group; each metric needs some of them (the hidden ones are not metrics). */
type Base = 'displays' | 'plays_requested' | 'video_starts' | 'replays' | 'playthrough_25' | 'playthrough_50' | 'playthrough_75' |
  'playthrough_100' | 'time_watched' | 'uniq_plays_requested' | 'rebuffers' | 'rebuffer_ms' | 'fatal_errors' | 'renditions' |
  'rendition_height_sum' | 'bitrate_sum'
/** The startup-time histogram's percentiles, from a CTE of their own. */
type Percentile = 'startup_b50' | 'startup_b95'

/** Where a report reads: raw events (one row each) or a rollup (`n` events, sums `total` and `total2`; store/rollup.ts). */
export type ReportSource = 'raw' | 'hourly' | 'daily'
const TABLE: Record<ReportSource, string> = { raw: 'analytics_events', hourly: HOURLY_ROLLUP.table, daily: DAILY_ROLLUP.table }

/**
 * Metric definitions (docs/analytics.md): counts of events by kind, sums of their numbers in ms, and
 * figures derived from these that are 0 when their denominator is 0. They are read from `kinds`, the
 * events (or rollup rows) already summed per group and kind, so the same integers come either way.
 */
function baseAggregates (): Record<Exclude<Base, 'uniq_plays_requested'>, string> {
  const count = (kind: number): string => `COALESCE(SUM(n) FILTER (WHERE kind = ${kind}), 0)`
  const sum = (column: 'total' | 'total2', kind: number): string => `CAST(COALESCE(SUM(${column}) FILTER (WHERE kind = ${kind}), 0) AS BIGINT)`
  return {
    displays: count(EVENT_KIND.display),
    plays_requested: count(EVENT_KIND.play_requested),
    video_starts: count(EVENT_KIND.video_start),
    replays: count(EVENT_KIND.replay),
    playthrough_25: count(EVENT_KIND.playthrough_25),
    playthrough_50: count(EVENT_KIND.playthrough_50),
    playthrough_75: count(EVENT_KIND.playthrough_75),
    playthrough_100: count(EVENT_KIND.playthrough_100),
    time_watched: sum('total', EVENT_KIND.time_watched),
    rebuffers: count(EVENT_KIND.rebuffer_start),
    rebuffer_ms: sum('total', EVENT_KIND.rebuffer_end),
    fatal_errors: count(EVENT_KIND.error_fatal),
    renditions: count(EVENT_KIND.rendition_change),
    rendition_height_sum: sum('total2', EVENT_KIND.rendition_change),
    bitrate_sum: sum('total', EVENT_KIND.rendition_change)
  }
}
const BASE_NAMES: Base[] = ['displays', 'plays_requested', 'video_starts', 'replays', 'playthrough_25', 'playthrough_50', 'playthrough_75',
  'playthrough_100', 'time_watched', 'uniq_plays_requested', 'rebuffers', 'rebuffer_ms', 'fatal_errors', 'renditions', 'rendition_height_sum', 'bitrate_sum']
const QUALITY_BASES = new Set<Base>(['rebuffers', 'rebuffer_ms', 'fatal_errors', 'renditions', 'rendition_height_sum', 'bitrate_sum'])

const quotient = (numerator: string, denominator: string, scale = ''): string =>
  `CASE WHEN ${denominator} = 0 THEN 0 ELSE CAST(${numerator} AS DOUBLE PRECISION)${scale} / ${denominator} END`
/** A percentile's value in ms; NULL for a group without startup times (no data is not an instant start). */
const startupMs = (bucket: Percentile): string => `CASE WHEN ${bucket} IS NULL THEN NULL ELSE ${bucketMidpointSql(bucket)} END`
/** The median startup for the score: a group without startup times counts an instant start. */
const scoreStartupMs = `CASE WHEN startup_b50 IS NULL THEN 0 ELSE ${bucketMidpointSql('startup_b50')} END`

interface Derived { needs: Array<Base | Percentile>, sql: string }
/**
 * The viewer-experience score (docs/analytics.md, "Viewer-experience score"): 100 × startup × smoothness × success,
 * with startup 8 s / (8 s + median startup), smoothness 1 / (1 + 20 × rebuffer ratio), success 1 − failure rate.
 */
const SCORE = `100.0 * 8000 / (8000 + ${scoreStartupMs})` +
  ` / (1 + 20 * ${quotient('rebuffer_ms', 'time_watched')}) * (1 - ${quotient('fatal_errors', 'plays_requested')})`
const DERIVED: Partial<Record<Metric, Derived>> = {
  avg_time_watched_per_video: { needs: ['time_watched', 'video_starts'], sql: quotient('time_watched', 'video_starts') },
  play_conversion_rate: { needs: ['plays_requested', 'displays'], sql: quotient('plays_requested', 'displays') },
  video_conversion_rate: { needs: ['video_starts', 'plays_requested'], sql: quotient('video_starts', 'plays_requested') },
  startup_time_ms: { needs: ['startup_b50'], sql: startupMs('startup_b50') },
  startup_time_ms_p95: { needs: ['startup_b95'], sql: startupMs('startup_b95') },
  rebuffer_ratio: { needs: ['rebuffer_ms', 'time_watched'], sql: quotient('rebuffer_ms', 'time_watched') },
  rebuffer_frequency: { needs: ['rebuffers', 'time_watched'], sql: quotient('rebuffers', 'time_watched', ' * 60000') },
  playback_failure_rate: { needs: ['fatal_errors', 'plays_requested'], sql: quotient('fatal_errors', 'plays_requested') },
  exits_before_start: { needs: ['plays_requested', 'video_starts', 'fatal_errors'], sql: 'GREATEST(plays_requested - video_starts - fatal_errors, 0)' },
  avg_rendition_height: { needs: ['rendition_height_sum', 'renditions'], sql: quotient('rendition_height_sum', 'renditions') },
  avg_bitrate: { needs: ['bitrate_sum', 'renditions'], sql: quotient('bitrate_sum', 'renditions') },
  viewer_experience_score: { needs: ['startup_b50', 'rebuffer_ms', 'time_watched', 'fatal_errors', 'plays_requested'], sql: SCORE }
}

interface Needed { base: Base[], percentiles: Percentile[], derived: Metric[] }

/** Only what the report shows or sorts by is computed: distinct viewers alone cost as much as the rest. */
function neededMetrics (p: ReportParams): Needed {
  const wanted = new Set<string>([...p.metrics, ...p.sort.map((s) => s.field)])
  const derived = (Object.keys(DERIVED) as Metric[]).filter((m) => wanted.has(m))
  const needs = new Set<string>([...wanted].filter((m) => (BASE_NAMES as string[]).includes(m)))
  for (const m of derived) DERIVED[m]?.needs.forEach((b) => needs.add(b))
  return {
    base: BASE_NAMES.filter((m) => needs.has(m)),
    percentiles: (['startup_b50', 'startup_b95'] as const).filter((m) => needs.has(m)),
    derived
  }
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
 *        ev AS (the account's counted events — or rollup rows — in the range, with seg and d0… computed),
 *        kinds AS (the count and sums per seg, dimensions and kind),
 *        agg AS (the base metrics per seg and dimensions, from kinds),
 *        [regs, uniq AS (HyperLogLog registers, estimate),]   when uniq_plays_requested is needed
 *        [hist, cum, pct AS (startup histogram, percentiles),] when a startup time is needed
 *        report AS (agg [+ uniq] [+ pct] + derived metrics)
 *   SELECT … FROM report ORDER BY seg, sort, dimensions LIMIT/OFFSET
 *
 * Values are bound as $1, $2… in the order the builder meets them.
 */
export function compileReport (dialect: StoreDialect, accountId: string, p: ReportParams, labels: AssetLabels | undefined, offset: number, source: ReportSource = 'raw'): CompiledReport {
  const builder = new ReportSql(DIALECT[dialect], p, labels ?? new Map(), source)
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
  private readonly metrics: Needed
  /** Distinct viewers, from HyperLogLog registers (only when asked for). */
  private readonly unique: boolean
  private readonly percentiles: boolean
  /** `seg, d0, d1…`: what every aggregate groups by. */
  private readonly groupBy: string

  constructor (private readonly dialect: Dialect, private readonly p: ReportParams, private readonly labels: AssetLabels, private readonly source: ReportSource) {
    this.labelIsDimension = p.dimensions.includes('label')
    this.labelColumn = dialect.collate(`COALESCE(l.label_id, '${UNKNOWN.label}')`)
    this.metrics = neededMetrics(p)
    this.unique = this.metrics.base.includes('uniq_plays_requested')
    this.percentiles = this.metrics.percentiles.length > 0
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
      ...this.aggregateCtes(),
      ...(this.unique ? this.uniqueViewersCtes() : []),
      ...(this.percentiles ? this.startupCtes() : []),
      this.reportCte()
    ]
    return `WITH ${ctes.join(',\n  ')}`
  }

  /** Segments in time order, then the requested sort, then the dimensions: a total order, so pages never overlap. */
  orderBy (): string {
    // NULLS LAST spelled out: the engines' defaults differ for DESC (a startup time without samples is NULL).
    const sorts = this.p.sort.map((s) => `${this.sortColumn(s.field)} ${s.descending ? 'DESC' : 'ASC'} NULLS LAST`)
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
    const raw = this.source === 'raw'
    const columns = raw ? ['e.kind'] : ['e.kind', 'e.n']
    const quality = base.some((m) => QUALITY_BASES.has(m))
    if (this.readsTotal() || (raw && this.percentiles)) columns.push(raw ? 'e.value' : 'e.total')
    if (base.includes('rendition_height_sum')) columns.push(raw ? 'e.value2' : 'e.total2')
    if (this.unique) columns.push(...(raw ? ['e.viewer_id'] : ['e.reg', 'e.rho']))
    if (this.percentiles && !raw) columns.push('e.bucket')
    const segment = this.p.segment === 'total' ? 'CAST(0 AS BIGINT)' : this.dialect.segmentMs(this.p.segment)
    const dims = this.p.dimensions.map((dim, i) => `${dim === 'label' ? this.labelColumn : COLUMN[dim]} AS d${i}`)
    const where = [
      `e.account_id = ${account}`,
      `e.time >= CAST(${from} AS timestamp)`, `e.time < CAST(${to} AS timestamp)`,
      quality
        ? `(e.kind BETWEEN ${COUNTED_KINDS.min} AND ${COUNTED_KINDS.max} OR e.kind BETWEEN ${QUALITY_KINDS.min} AND ${QUALITY_KINDS.max})`
        : `e.kind BETWEEN ${COUNTED_KINDS.min} AND ${COUNTED_KINDS.max}`
    ]
    if (this.p.filters !== undefined) where.push(this.filter(this.p.filters))
    const labelJoin = this.labelIsDimension ? ' LEFT JOIN labels l ON l.asset_id = e.asset_id' : ''
    // ev is read again for distinct viewers and percentiles: NOT MATERIALIZED keeps PostgreSQL from spilling it to a temporary table.
    const materialized = this.unique || this.percentiles ? 'NOT MATERIALIZED ' : ''
    return `ev AS ${materialized}(
    SELECT ${[...columns, `${segment} AS seg`, ...dims].join(', ')}
    FROM ${TABLE[this.source]} e${labelJoin}
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

  /**
   * The base metrics per group in two steps: first one row per group and kind with its count and sums
   * (three aggregates over every event), then those few rows spread into a column per metric. Spreading
   * them over the events directly costs an aggregate with its own filter per metric on every event.
   */
  private aggregateCtes (): string[] {
    const raw = this.source === 'raw'
    const sums = [`${raw ? 'COUNT(*)' : 'SUM(n)'} AS n`]
    if (this.readsTotal()) sums.push(`SUM(${raw ? 'value' : 'total'}) AS total`)
    if (this.metrics.base.includes('rendition_height_sum')) sums.push(`SUM(${raw ? 'value2' : 'total2'}) AS total2`)
    const base = baseAggregates()
    const counted = this.metrics.base.filter((m) => m !== 'uniq_plays_requested')
    const aggregates = [this.groupBy, ...counted.map((m) => `${base[m as keyof typeof base]} AS ${m}`)]
    return [
      `kinds AS (SELECT ${this.groupBy}, kind, ${sums.join(', ')} FROM ev GROUP BY ${this.groupBy}, kind)`,
      `agg AS (SELECT ${aggregates.join(',\n    ')}
    FROM kinds GROUP BY ${this.groupBy})`
    ]
  }

  /** Whether the report sums `value` (raw) or `total` (rollups): time watched, and every viewer-experience sum. */
  private readsTotal (): boolean {
    const { base } = this.metrics
    return base.includes('time_watched') || base.some((m) => QUALITY_BASES.has(m))
  }

  /** Distinct viewers: each group's HyperLogLog registers (their largest rank), then the estimate (sketches.ts). */
  private uniqueViewersCtes (): string[] {
    const regs = this.source === 'raw'
      ? `SELECT ${this.groupBy}, ${hllRegisterSql('h', this.dialect.hexInt)} AS reg, MAX(${hllRankSql('h')}) AS rho
    FROM (SELECT *, ${hllHashSql('viewer_id')} AS h FROM ev WHERE kind = ${EVENT_KIND.play_requested}) viewers GROUP BY ${this.groupBy}, reg`
      : `SELECT ${this.groupBy}, reg, MAX(rho) AS rho FROM ev WHERE kind = ${EVENT_KIND.play_requested} GROUP BY ${this.groupBy}, reg`
    return [
      `regs AS (${regs})`,
      `uniq AS (SELECT ${this.groupBy}, ${hllEstimateSql('rho')} AS uniq_plays_requested FROM regs GROUP BY ${this.groupBy})`
    ]
  }

  /**
   * Startup-time percentiles from the fixed-bucket histogram (sketches.ts): the counts per bucket, their
   * running total per group, and the first bucket where it reaches 50 % and 95 % of the group's count.
   */
  private startupCtes (): string[] {
    const partition = this.groupBy
    const hist = this.source === 'raw'
      ? `SELECT ${this.groupBy}, ${bucketSql('value', this.dialect.intDiv)} AS b, COUNT(*) AS n
    FROM ev WHERE kind = ${EVENT_KIND.video_start} AND value IS NOT NULL GROUP BY ${this.groupBy}, b`
      : `SELECT ${this.groupBy}, bucket AS b, SUM(n) AS n FROM ev WHERE kind = ${EVENT_KIND.video_start} AND bucket IS NOT NULL GROUP BY ${this.groupBy}, bucket`
    return [
      `hist AS (${hist})`,
      `cum AS (SELECT ${this.groupBy}, b, SUM(n) OVER (PARTITION BY ${partition} ORDER BY b) AS c, SUM(n) OVER (PARTITION BY ${partition}) AS tot FROM hist)`,
      `pct AS (SELECT ${this.groupBy}, MIN(b) FILTER (WHERE c * 100 >= tot * 50) AS startup_b50, MIN(b) FILTER (WHERE c * 100 >= tot * 95) AS startup_b95
    FROM cum GROUP BY ${this.groupBy})`
    ]
  }

  private reportCte (): string {
    const columns = ['agg.*']
    if (this.unique) columns.push('COALESCE(uniq.uniq_plays_requested, 0) AS uniq_plays_requested')
    if (this.percentiles) columns.push('pct.startup_b50', 'pct.startup_b95')
    const inner = `SELECT ${columns.join(', ')} FROM ${this.joins()}`
    if (this.metrics.derived.length === 0) return `report AS (${inner})`
    return `report AS (SELECT base.*,
    ${this.metrics.derived.map((m) => `${DERIVED[m]?.sql ?? '0'} AS ${m}`).join(',\n    ')}
    FROM (${inner}) base)`
  }

  private joins (): string {
    let from = 'agg'
    if (this.unique) from += ` LEFT JOIN uniq USING (${this.groupBy})`
    if (this.percentiles) from += ` LEFT JOIN pct USING (${this.groupBy})`
    return from
  }

  private sortColumn (field: string): string {
    const i = this.p.dimensions.indexOf(field as Dimension)
    return i === -1 ? field : `d${i}`
  }
}
