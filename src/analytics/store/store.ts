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
  /** Applies the batches in one transaction, each at most once (ids already applied are skipped). */
  writeBatches: (batches: EventBatch[], now: number) => Promise<void>
  /** Which of these batch ids are already applied. */
  appliedBatchIds: (ids: string[]) => Promise<Set<string>>
  /** Forgets applied batch ids older than `before` (ms); the spool never holds batches that old. */
  pruneBatchIds: (before: number) => Promise<void>
  openImport: (now: number) => Promise<ImportWriter>
  /** A read-only query; counts may come back as bigint or numeric strings, callers convert. */
  query: (sql: string, params: SqlParam[]) => Promise<Array<Record<string, unknown>>>
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
