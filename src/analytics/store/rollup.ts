import { COUNTED_KINDS, EVENT_KIND, QUALITY_KINDS, type Dimension } from '../model.ts'
import { bucketSql, hllHashSql, hllRankSql, hllRegisterSql, SKETCH_DIALECT } from '../report/sketches.ts'
import type { StoreDialect } from './store.ts'

/**
 * Rollups (docs/analytics.md, "Rollups"): the counted events per time grain, per kind and per some of
 * the report dimensions, with the sketches reports need: the startup-time bucket of a `video_start`,
 * the HyperLogLog register and rank of a `play_requested`'s viewer. `time` is the start of the hour
 * (or day). Rows are appended per ingested batch and never updated: reports sum counts and take the
 * largest rank, so two rows of one key add up like one.
 */
export interface Rollup {
  table: string
  grain: 'hour' | 'day'
  /** The dimensions a report may group or filter by to read this rollup. */
  dimensions: ReadonlySet<Dimension>
  /** The event columns kept, besides the account and the kind. */
  columns: readonly string[]
}

/** Every report dimension but `label`, kept as the asset id (labels are joined at report time). */
export const HOURLY_ROLLUP: Rollup = {
  table: 'analytics_rollup',
  grain: 'hour',
  dimensions: new Set(['asset', 'player_id', 'label', 'country', 'device_type', 'os', 'browser', 'domain']),
  columns: ['asset_id', 'player_id', 'country', 'device_type', 'os', 'browser', 'domain']
}

/**
 * The viewer's place and device only: without asset, player and domain (and so label) a day's rows
 * merge across every session of one country and device, some twenty times fewer than the hourly rows.
 */
export const DAILY_ROLLUP: Rollup = {
  table: 'analytics_rollup_daily',
  grain: 'day',
  dimensions: new Set(['country', 'device_type', 'os', 'browser']),
  columns: ['country', 'device_type', 'os', 'browser']
}

/** Finest first: a store rebuilds each from the one before it. */
export const ROLLUPS = [HOURLY_ROLLUP, DAILY_ROLLUP] as const

export function rollupDdl (dialect: StoreDialect, rollup: Rollup): string {
  const text = dialect === 'duckdb' ? 'VARCHAR' : 'text COLLATE "C"'
  return `CREATE TABLE IF NOT EXISTS ${rollup.table} (
    account_id ${text} NOT NULL, time TIMESTAMP NOT NULL, ${rollup.columns.map((c) => `${c} ${text} NOT NULL`).join(', ')},
    kind SMALLINT NOT NULL, bucket SMALLINT, reg SMALLINT, n BIGINT NOT NULL, total BIGINT, total2 BIGINT, rho SMALLINT)`
}

export const rollupIndex = (rollup: Rollup): string => `CREATE INDEX IF NOT EXISTS ${rollup.table}_account_time ON ${rollup.table} (account_id, time)`

const keysOf = (rollup: Rollup): string => ['account_id', ...rollup.columns, 'kind'].join(', ')

/** The rollup rows of the events in `source` (a table or a subquery aliased as a table), written to `into`. */
export function rollupInsertSql (dialect: StoreDialect, rollup: Rollup, source: string, into = rollup.table): string {
  const d = SKETCH_DIALECT[dialect]
  const keys = keysOf(rollup)
  const bucket = `CASE WHEN kind = ${EVENT_KIND.video_start} AND value IS NOT NULL THEN ${bucketSql('value', d.intDiv)} END`
  const reg = `CASE WHEN kind = ${EVENT_KIND.play_requested} THEN ${hllRegisterSql('viewer_hash', d.hexInt)} END`
  const rho = `MAX(CASE WHEN kind = ${EVENT_KIND.play_requested} THEN ${hllRankSql('viewer_hash')} END)`
  // The viewer's hash once per `play_requested`, for both its register and its rank.
  const hashed = `(SELECT *, CASE WHEN kind = ${EVENT_KIND.play_requested} THEN ${hllHashSql('viewer_id')} END AS viewer_hash FROM ${source}) AS hashed`
  return `INSERT INTO ${into} (${keys}, time, bucket, reg, n, total, total2, rho)
    SELECT ${keys}, date_trunc('${rollup.grain}', time) AS grain, ${bucket} AS bucket, ${reg} AS reg,
      COUNT(*), SUM(value), SUM(value2), ${rho}
    FROM ${hashed}
    WHERE kind BETWEEN ${COUNTED_KINDS.min} AND ${COUNTED_KINDS.max} OR kind BETWEEN ${QUALITY_KINDS.min} AND ${QUALITY_KINDS.max}
    GROUP BY ${keys}, grain, bucket, reg`
}

/**
 * A coarser rollup's rows from rows of a finer one (`coarse`'s columns a subset, its grain a multiple),
 * written to `into`: the same rows as from the events, since counts and sums add up and ranks take their
 * maximum, without hashing a viewer id again and from far fewer rows. With rows of `coarse` itself as
 * the source, it merges them into one row per key.
 */
export function rollupFromFinerSql (coarse: Rollup, source: string, into = coarse.table): string {
  const keys = keysOf(coarse)
  return `INSERT INTO ${into} (${keys}, time, bucket, reg, n, total, total2, rho)
    SELECT ${keys}, date_trunc('${coarse.grain}', time) AS grain, bucket, reg, SUM(n), SUM(total), SUM(total2), MAX(rho)
    FROM ${source}
    GROUP BY ${keys}, grain, bucket, reg`
}

/** Rolls the stored events up into ROLLUPS[i]: the finest from the events, each coarser from the one before. */
export function rollUpStoredSql (dialect: StoreDialect, i: number): string {
  return i === 0 ? rollupInsertSql(dialect, ROLLUPS[0], 'analytics_events') : rollupFromFinerSql(ROLLUPS[i], ROLLUPS[i - 1].table)
}

/** Empties every rollup and rolls the stored events up again: one row per key, nothing left to merge. */
export function rebuildRollupsSql (dialect: StoreDialect): string[] {
  return [...ROLLUPS.map((r) => `DELETE FROM ${r.table}`), `DELETE FROM ${PENDING.table}`, ...ROLLUPS.map((_, i) => rollUpStoredSql(dialect, i))]
}

/**
 * The hours, per account, whose rollup rows may hold a key more than once (docs/analytics.md,
 * "Compaction"): every write marks the hours of its hourly rows, and compaction merges them. A mark is
 * a row per write, with no key: a unique key would make a live write wait on an open import that
 * marked the same hour (PostgreSQL), or fail against it at commit (DuckDB). Compaction reads them
 * distinct and removes them all.
 */
export const PENDING = {
  table: 'analytics_rollup_pending',
  ddl: (dialect: StoreDialect): string => `CREATE TABLE IF NOT EXISTS analytics_rollup_pending (
    account_id ${dialect === 'duckdb' ? 'VARCHAR' : 'text COLLATE "C"'} NOT NULL, hour TIMESTAMP NOT NULL)`,
  index: 'CREATE INDEX IF NOT EXISTS analytics_rollup_pending_hour ON analytics_rollup_pending (hour)',
  /** Marks the hours of the hourly rows in `source`. */
  mark: (source: string): string =>
    `INSERT INTO analytics_rollup_pending (account_id, hour) SELECT DISTINCT account_id, time FROM ${source}`
}

/** A statement and the values of its `$n`. */
export interface Statement { sql: string, params: string[] }

/**
 * Merges a rollup's rows of one account from one time to another (`range`: the account and the two
 * times as text) into one row per key, as a rebuild would write them. PostgreSQL does it in one
 * statement, whose delete and insert share one snapshot: rows another transaction commits meanwhile are
 * neither deleted nor counted. DuckDB, whose one writer connection runs it between writes, through a
 * staging table in the caller's transaction.
 */
export function mergeRowsSql (dialect: StoreDialect, rollup: Rollup, range: string[]): Statement[] {
  const where = 'account_id = $1 AND time >= CAST($2 AS TIMESTAMP) AND time < CAST($3 AS TIMESTAMP)'
  if (dialect === 'postgres') {
    return [{ sql: `WITH gone AS (DELETE FROM ${rollup.table} WHERE ${where} RETURNING *) ${rollupFromFinerSql(rollup, 'gone')}`, params: range }]
  }
  const staging = `${rollup.table}_merging`
  return [
    { sql: `CREATE TEMP TABLE IF NOT EXISTS ${staging} AS SELECT * FROM ${rollup.table} LIMIT 0`, params: [] },
    { sql: rollupFromFinerSql(rollup, `${rollup.table} WHERE ${where}`, staging), params: range },
    { sql: `DELETE FROM ${rollup.table} WHERE ${where}`, params: range },
    { sql: `INSERT INTO ${rollup.table} SELECT * FROM ${staging}`, params: [] },
    { sql: `DELETE FROM ${staging}`, params: [] }
  ]
}
