import { COUNTED_KINDS, EVENT_KIND, QUALITY_KINDS } from '../model.ts'
import { bucketSql, hllRankSql, hllRegisterSql, SKETCH_DIALECT } from '../report/sketches.ts'
import type { StoreDialect } from './store.ts'

/**
 * Rollups (docs/analytics.md, "Rollups"): the counted events per hour and every report dimension but
 * `label` (kept as the asset id, since labels are joined at report time), per kind, with the sketches
 * reports need: the startup-time bucket of a `video_start`, the HyperLogLog register and rank of a
 * `play_requested`'s viewer. `time` is the hour. Rows are appended per ingested batch and never updated:
 * reports sum counts and take the largest rank, so two rows of one key add up like one.
 */
export function rollupDdl (dialect: StoreDialect): string {
  const text = dialect === 'duckdb' ? 'VARCHAR' : 'text COLLATE "C"'
  return `CREATE TABLE IF NOT EXISTS analytics_rollup (
    account_id ${text} NOT NULL, time TIMESTAMP NOT NULL, asset_id ${text} NOT NULL, player_id ${text} NOT NULL,
    country ${text} NOT NULL, device_type ${text} NOT NULL, os ${text} NOT NULL, browser ${text} NOT NULL, domain ${text} NOT NULL,
    kind SMALLINT NOT NULL, bucket SMALLINT, reg SMALLINT, n BIGINT NOT NULL, total BIGINT, total2 BIGINT, rho SMALLINT)`
}

export const ROLLUP_INDEX = 'CREATE INDEX IF NOT EXISTS analytics_rollup_account_time ON analytics_rollup (account_id, time)'

const KEYS = ['account_id', 'asset_id', 'player_id', 'country', 'device_type', 'os', 'browser', 'domain', 'kind']

/** The rollup rows of the events in `source` (a table or a subquery aliased as a table). */
export function rollupInsertSql (dialect: StoreDialect, source: string): string {
  const d = SKETCH_DIALECT[dialect]
  const bucket = `CASE WHEN kind = ${EVENT_KIND.video_start} AND value IS NOT NULL THEN ${bucketSql('value', d.intDiv)} END`
  const reg = `CASE WHEN kind = ${EVENT_KIND.play_requested} THEN ${hllRegisterSql('viewer_id', d.hexInt)} END`
  const rho = `MAX(CASE WHEN kind = ${EVENT_KIND.play_requested} THEN ${hllRankSql('viewer_id')} END)`
  return `INSERT INTO analytics_rollup (${KEYS.join(', ')}, time, bucket, reg, n, total, total2, rho)
    SELECT ${KEYS.join(', ')}, date_trunc('hour', time) AS hour, ${bucket} AS bucket, ${reg} AS reg,
      COUNT(*), SUM(value), SUM(value2), ${rho}
    FROM ${source}
    WHERE kind BETWEEN ${COUNTED_KINDS.min} AND ${COUNTED_KINDS.max} OR kind BETWEEN ${QUALITY_KINDS.min} AND ${QUALITY_KINDS.max}
    GROUP BY ${KEYS.join(', ')}, hour, bucket, reg`
}
