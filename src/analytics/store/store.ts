import type { EventBatch, EventRow } from '../model.ts'

export type StoreDialect = 'duckdb' | 'postgres'

/** Query parameters: text, or lists of text (bound as `$n::text[]`). Numbers are inlined after validation. */
export type SqlParam = string | string[]

/** A long write of imported rows that becomes visible all at once, or not at all. */
export interface ImportWriter {
  append: (rows: EventRow[]) => Promise<void>
  /** Commits the rows under `batchId`; false (and nothing stored) when that id was applied before. */
  commit: (batchId: string) => Promise<boolean>
  abort: () => Promise<void>
}

/**
 * Where events live and reports run. Both engines keep the same two tables:
 * `analytics_events` (one row per event) and `analytics_batches` (ids of applied batches, so that
 * replaying the spool or retrying an import never counts an event twice).
 */
export interface AnalyticsStore {
  readonly dialect: StoreDialect
  /** Whether rollups are maintained at ingestion (docs/analytics.md, "Rollups"); reports read them when they may. */
  readonly rollups: boolean
  /** Rebuilds the rollups from the stored events (after a bulk load that bypassed ingestion). */
  rebuildRollups: () => Promise<void>
  /**
   * Merges the rollup rows of the pending hours that started before `before` (ms) into one row per key
   * (docs/analytics.md, "Compaction"); resolves with how many account-days it merged.
   */
  compactRollups: (before: number) => Promise<number>
  /** Applies the batches in one transaction, each at most once (ids already applied are skipped). */
  writeBatches: (batches: EventBatch[], now: number) => Promise<void>
  /** Which of these batch ids are already applied. */
  appliedBatchIds: (ids: string[]) => Promise<Set<string>>
  /** Forgets applied batch ids older than `before` (ms); the spool never holds batches that old. */
  pruneBatchIds: (before: number) => Promise<void>
  openImport: (now: number) => Promise<ImportWriter>
  /** A read-only query; counts may come back as bigint or numeric strings, callers convert. */
  query: (sql: string, params: SqlParam[]) => Promise<Array<Record<string, unknown>>>
  /**
   * The account's stored events from `start` to `end` (ms, end exclusive) in time order, a chunk of rows
   * at a time, read as they are consumed (a cursor), so an export of any size holds one chunk in memory.
   */
  exportEvents: (accountId: string, start: number, end: number) => AsyncIterable<ExportRow[]>
  /** The memory an embedded store holds in this process, by its own count; absent where the store is a server. */
  memoryBytes?: () => Promise<number>
  close: () => Promise<void>
}

export interface StoreOptions {
  /** Where a relative `duckdb:` path, and the default DuckDB file, live. */
  dataDir: string
  /** PostgreSQL only: the schema to use, created if missing (tests use a fresh one). */
  pgSchema?: string
  poolSize?: number
  /** DuckDB only: its memory bound and worker threads (ANALYTICS_MEMORY_MB, ANALYTICS_THREADS). */
  duckdb?: DuckDbSettings
  /** Maintain rollups at ingestion (default true; the ingestion benchmark compares without). */
  rollups?: boolean
}

/** DuckDB defaults to 80 % of the machine's memory and a thread per core; both are bounded here. */
export interface DuckDbSettings { memoryLimitMb: number, threads: number }

/** Event rows as table columns, in the order both engines declare them (`kind`: see EVENT_KIND). */
export const EVENT_COLUMNS = [
  'account_id', 'asset_id', 'player_id', 'session_id', 'viewer_id', 'kind', 'time', 'value',
  'country', 'device_type', 'os', 'browser', 'domain'
] as const

/**
 * The viewer-experience columns, after the others (added to older tables by ALTER TABLE): `value2`
 * (a rendition's height, a heartbeat's video duration), and an error's `code` and `message`.
 */
export const QUALITY_COLUMNS = ['value2', 'code', 'message'] as const

/** One stored event as an export reads it: `time` in ms since the epoch, numbers as numbers, absent values null. */
export interface ExportRow {
  time: number
  kind: number
  asset_id: string
  player_id: string
  session_id: string
  viewer_id: string
  value: number | null
  value2: number | null
  code: string | null
  message: string | null
  country: string
  device_type: string
  os: string
  browser: string
  domain: string
}

/** The columns an export reads, in order; `time` is selected as epoch milliseconds by each engine. */
export const EXPORT_COLUMNS = ['time', 'kind', 'asset_id', 'player_id', 'session_id', 'viewer_id', 'value', 'value2', 'code', 'message',
  'country', 'device_type', 'os', 'browser', 'domain'] as const

/** Rows read per chunk of an export. */
export const EXPORT_CHUNK_ROWS = 5000

/** The export's query with the engine's spelling of `time` as epoch milliseconds; $1 account, $2 and $3 the range as text. */
export function exportSql (epochMs: string): string {
  const columns = EXPORT_COLUMNS.map((c) => c === 'time' ? `${epochMs} AS time` : c).join(', ')
  return `SELECT ${columns} FROM analytics_events WHERE account_id = $1 AND time >= CAST($2 AS timestamp) AND time < CAST($3 AS timestamp) ORDER BY analytics_events.time`
}

/** A stored row's values as an ExportRow (counts may arrive as bigint or numeric strings). */
export function exportRowOf (row: Record<string, unknown>): ExportRow {
  const num = (v: unknown): number | null => v === null || v === undefined ? null : Number(v)
  const text = (v: unknown): string | null => v === null || v === undefined ? null : String(v)
  return {
    time: Number(row.time), kind: Number(row.kind), asset_id: String(row.asset_id), player_id: String(row.player_id),
    session_id: String(row.session_id), viewer_id: String(row.viewer_id), value: num(row.value), value2: num(row.value2),
    code: text(row.code), message: text(row.message), country: String(row.country), device_type: String(row.device_type),
    os: String(row.os), browser: String(row.browser), domain: String(row.domain)
  }
}

/** A time as the export's query takes it: `YYYY-MM-DD HH:MM:SS.mmm`, read as a UTC `timestamp`. */
export const exportTime = (ms: number): string => new Date(ms).toISOString().slice(0, 23).replace('T', ' ')
