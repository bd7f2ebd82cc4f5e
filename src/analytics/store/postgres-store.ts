import pg from 'pg'
import { eventKind, type EventBatch, type EventRow } from '../model.ts'
import { sqlTime } from '../report/segments.ts'
import { compactDayStatements, pendingDays, pendingSql } from './compaction.ts'
import { DAILY_ROLLUP, HOURLY_ROLLUP, PENDING, rebuildRollupsSql, ROLLUPS, rollupDdl, rollupFromFinerSql, rollupIndex, rollUpStoredSql, rollupInsertSql } from './rollup.ts'
import { EVENT_COLUMNS, EXPORT_CHUNK_ROWS, exportRowOf, exportSql, exportTime, QUALITY_COLUMNS, type AnalyticsStore, type ImportWriter, type SqlParam, type StoreOptions } from './store.ts'

// Text columns compare in the "C" collation, so that sorting ties break the same way as in DuckDB
// (byte order) whatever the database's locale.
const DDL = [
  `CREATE TABLE IF NOT EXISTS analytics_events (
    account_id text COLLATE "C" NOT NULL, asset_id text COLLATE "C" NOT NULL, player_id text COLLATE "C" NOT NULL,
    session_id text COLLATE "C" NOT NULL, viewer_id text COLLATE "C" NOT NULL, kind smallint NOT NULL,
    time timestamp NOT NULL, value bigint, country text COLLATE "C" NOT NULL,
    device_type text COLLATE "C" NOT NULL, os text COLLATE "C" NOT NULL, browser text COLLATE "C" NOT NULL,
    domain text COLLATE "C" NOT NULL)`,
  'ALTER TABLE analytics_events ADD COLUMN IF NOT EXISTS value2 bigint',
  'ALTER TABLE analytics_events ADD COLUMN IF NOT EXISTS code text',
  'ALTER TABLE analytics_events ADD COLUMN IF NOT EXISTS message text',
  // Every report filters on the account and a time range.
  'CREATE INDEX IF NOT EXISTS analytics_events_account_time ON analytics_events (account_id, time)',
  'CREATE TABLE IF NOT EXISTS analytics_batches (id text PRIMARY KEY, applied_at bigint NOT NULL)'
]

const COLUMNS = [...EVENT_COLUMNS, ...QUALITY_COLUMNS].join(', ')
const UNNEST = `unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::smallint[], $7::timestamp[],
    $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::bigint[], $15::text[], $16::text[])`
const INSERT_ROWS = `INSERT INTO analytics_events (${COLUMNS}) SELECT * FROM ${UNNEST}`
/**
 * The events and the rows of both rollups in one statement, from the same arrays: the daily rows from
 * the hourly ones, whose hours are marked for compaction.
 */
const INSERT_ROWS_AND_ROLLUPS = `WITH batch AS MATERIALIZED (SELECT * FROM ${UNNEST} AS r(${COLUMNS})),
  stored AS (INSERT INTO analytics_events (${COLUMNS}) SELECT * FROM batch),
  hourly AS (${rollupInsertSql('postgres', HOURLY_ROLLUP, 'batch')} RETURNING *),
  pending AS (${PENDING.mark('hourly')})
  ${rollupFromFinerSql(DAILY_ROLLUP, 'hourly')}`
const ROWS_PER_INSERT = 10_000

/** One INSERT per 10,000 rows, the columns passed as arrays: far fewer round trips than row-wise inserts. */
async function insertRows (client: pg.ClientBase, rows: EventRow[], rollups: boolean): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const part = rows.slice(start, start + ROWS_PER_INSERT)
    await client.query(rollups ? INSERT_ROWS_AND_ROLLUPS : INSERT_ROWS, [
      part.map((r) => r.accountId), part.map((r) => r.assetId), part.map((r) => r.playerId),
      part.map((r) => r.sessionId), part.map((r) => r.viewerId), part.map((r) => eventKind(r.name, r.percent, r.fatal)),
      // A zone in the input of a `timestamp` is ignored, so the UTC wall time is stored as is.
      part.map((r) => new Date(r.time).toISOString()),
      part.map((r) => r.value),
      part.map((r) => r.country), part.map((r) => r.deviceType), part.map((r) => r.os),
      part.map((r) => r.browser), part.map((r) => r.domain),
      part.map((r) => r.value2 ?? null), part.map((r) => r.code ?? null), part.map((r) => r.message ?? null)
    ])
  }
}

async function claimBatchIds (client: pg.ClientBase, ids: string[], now: number): Promise<Set<string>> {
  const result = await client.query<{ id: string }>(
    'INSERT INTO analytics_batches (id, applied_at) SELECT unnest($1::text[]), $2 ON CONFLICT DO NOTHING RETURNING id', [ids, now])
  return new Set(result.rows.map((r) => r.id))
}

async function inTransaction<T> (pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

export async function openPostgresStore (url: string, options: StoreOptions): Promise<AnalyticsStore> {
  const schema = options.pgSchema
  if (schema !== undefined) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`)
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try { await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`) } finally { await admin.end() }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {})
  })
  for (const statement of DDL) await pool.query(statement)
  const rollups = options.rollups ?? true
  await inTransaction(pool, async (client) => {
    for (const [i, rollup] of ROLLUPS.entries()) {
      const found = await client.query('SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1', [rollup.table])
      await client.query(rollupDdl('postgres', rollup))
      await client.query(rollupIndex(rollup))
      // Events stored before a rollup existed are rolled up once, when its table is created.
      if (found.rowCount === 0) await client.query(rollUpStoredSql('postgres', i))
    }
    await client.query(PENDING.ddl('postgres'))
    await client.query(PENDING.index)
  })

  return {
    dialect: 'postgres',
    rollups,
    rebuildRollups: async () => {
      await inTransaction(pool, async (client) => {
        for (const statement of rebuildRollupsSql('postgres')) await client.query(statement)
      })
    },
    compactRollups: async (before: number) => {
      const pending = pendingDays((await pool.query(pendingSql('postgres'), [sqlTime(before)])).rows)
      for (const day of pending) {
        await inTransaction(pool, async (client) => {
          for (const statement of compactDayStatements('postgres', day)) await client.query(statement.sql, statement.params)
        })
      }
      return pending.length
    },
    writeBatches: async (batches: EventBatch[], now: number) => {
      // Claiming the ids first, in the same transaction, makes concurrent writers of one batch safe:
      // the second waits on the first's primary-key row and then finds it taken.
      await inTransaction(pool, async (client) => {
        const fresh = await claimBatchIds(client, batches.map((b) => b.id), now)
        await insertRows(client, batches.filter((b) => fresh.has(b.id)).flatMap((b) => b.rows), rollups)
      })
    },
    appliedBatchIds: async (ids: string[]) => {
      const result = await pool.query<{ id: string }>('SELECT id FROM analytics_batches WHERE id = ANY($1::text[])', [ids])
      return new Set(result.rows.map((r) => r.id))
    },
    pruneBatchIds: async (before: number) => {
      await pool.query('DELETE FROM analytics_batches WHERE applied_at < $1', [before])
    },
    openImport: async (now: number): Promise<ImportWriter> => {
      const client = await pool.connect()
      await client.query('BEGIN')
      const finish = async (sql: string): Promise<void> => {
        try { await client.query(sql) } finally { client.release() }
      }
      return {
        append: async (rows) => { await insertRows(client, rows, rollups) },
        commit: async (batchId) => {
          const fresh = await claimBatchIds(client, [batchId], now).catch(async (error: unknown) => { await finish('ROLLBACK'); throw error })
          if (!fresh.has(batchId)) { await finish('ROLLBACK'); return false }
          await finish('COMMIT')
          return true
        },
        abort: async () => { await finish('ROLLBACK') }
      }
    },
    query: async (sql: string, params: SqlParam[]) => (await pool.query(sql, params)).rows,
    exportEvents: async function * (accountId: string, start: number, end: number) {
      // A cursor in a read-only transaction: the rows come EXPORT_CHUNK_ROWS at a time, as they are consumed.
      const client = await pool.connect()
      let done = false
      try {
        await client.query('BEGIN READ ONLY')
        await client.query(`DECLARE analytics_export NO SCROLL CURSOR FOR ${exportSql('CAST(EXTRACT(EPOCH FROM time) * 1000 AS BIGINT)')}`,
          [accountId, exportTime(start), exportTime(end)])
        for (;;) {
          const { rows } = await client.query(`FETCH ${EXPORT_CHUNK_ROWS} FROM analytics_export`)
          if (rows.length === 0) break
          yield rows.map(exportRowOf)
        }
        await client.query('COMMIT')
        done = true
      } finally {
        if (!done) await client.query('ROLLBACK').catch(() => {})
        client.release()
      }
    },
    close: async () => { await pool.end() }
  }
}
