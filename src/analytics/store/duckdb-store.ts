import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  BIGINT, DuckDBDataChunk, DuckDBInstance, DuckDBTimestampValue, LIST, listValue, SMALLINT, TIMESTAMP, VARCHAR,
  type DuckDBConnection, type DuckDBType, type DuckDBValue
} from '@duckdb/node-api'
import { eventKind, type EventBatch, type EventRow } from '../model.ts'
import { sqlTime } from '../report/segments.ts'
import { compactDayStatements, pendingDays, pendingSql } from './compaction.ts'
import { DAILY_ROLLUP, HOURLY_ROLLUP, PENDING, rebuildRollupsSql, ROLLUPS, rollupDdl, rollupFromFinerSql, rollUpStoredSql, rollupInsertSql } from './rollup.ts'
import { EXPORT_CHUNK_ROWS, exportRowOf, exportSql, exportTime, type AnalyticsStore, type DuckDbSettings, type ExportRow, type ImportWriter, type SqlParam } from './store.ts'

// DuckDB is columnar and in-process: one process owns the file (a second one cannot even open it
// read-only; docs/decisions.md), so only the `api` role opens it.
const DDL = [
  `CREATE TABLE IF NOT EXISTS analytics_events (
    account_id VARCHAR NOT NULL, asset_id VARCHAR NOT NULL, player_id VARCHAR NOT NULL,
    session_id VARCHAR NOT NULL, viewer_id VARCHAR NOT NULL, kind SMALLINT NOT NULL, time TIMESTAMP NOT NULL,
    value BIGINT, country VARCHAR NOT NULL, device_type VARCHAR NOT NULL,
    os VARCHAR NOT NULL, browser VARCHAR NOT NULL, domain VARCHAR NOT NULL)`,
  'ALTER TABLE analytics_events ADD COLUMN IF NOT EXISTS value2 BIGINT',
  'ALTER TABLE analytics_events ADD COLUMN IF NOT EXISTS code VARCHAR',
  'ALTER TABLE analytics_events ADD COLUMN IF NOT EXISTS message VARCHAR',
  // Which append wrote the row (appendRows): its rollup reads these rows alone. Older rows have none.
  'ALTER TABLE analytics_events ADD COLUMN IF NOT EXISTS append_seq BIGINT',
  'CREATE TABLE IF NOT EXISTS analytics_batches (id VARCHAR PRIMARY KEY, applied_at BIGINT NOT NULL)'
]

const CHUNK_TYPES: DuckDBType[] = [VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, SMALLINT, TIMESTAMP, BIGINT, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, BIGINT, VARCHAR, VARCHAR, BIGINT]
// DuckDB's vector size: a full data chunk per append is the fast path of the appender.
const CHUNK_ROWS = 2048

/**
 * Appends rows through the appender in column-major data chunks (about ten times faster than INSERT),
 * each row marked with `seq`, this append's number. With rollups, the hourly rows of exactly these
 * events are then made in the caller's transaction: a filter on `append_seq` skips every committed
 * row group by its statistics and reads the transaction's own new rows. They are staged, inserted,
 * summed again into the daily rows, and their hours marked for compaction.
 */
async function appendRows (connection: DuckDBConnection, rows: EventRow[], seq: number, rollups: boolean): Promise<void> {
  if (rows.length === 0) return
  await appendTo(connection, rows, seq)
  if (!rollups) return
  await connection.run(`CREATE TEMP TABLE IF NOT EXISTS analytics_staging_rollup AS SELECT * FROM ${HOURLY_ROLLUP.table} LIMIT 0`)
  const appended = `(SELECT * FROM analytics_events WHERE append_seq = ${seq}) AS appended`
  await connection.run(rollupInsertSql('duckdb', HOURLY_ROLLUP, appended, 'analytics_staging_rollup'))
  await connection.run(`INSERT INTO ${HOURLY_ROLLUP.table} SELECT * FROM analytics_staging_rollup`)
  await connection.run(rollupFromFinerSql(DAILY_ROLLUP, 'analytics_staging_rollup'))
  await connection.run(PENDING.mark('analytics_staging_rollup'))
  await connection.run('DELETE FROM analytics_staging_rollup')
}

async function appendTo (connection: DuckDBConnection, rows: EventRow[], seq: number): Promise<void> {
  const appender = await connection.createAppender('analytics_events')
  const mark = BigInt(seq)
  try {
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const part = rows.slice(start, start + CHUNK_ROWS)
      const chunk = DuckDBDataChunk.create(CHUNK_TYPES, part.length)
      chunk.setColumns([
        part.map((r) => r.accountId), part.map((r) => r.assetId), part.map((r) => r.playerId),
        part.map((r) => r.sessionId), part.map((r) => r.viewerId), part.map((r) => eventKind(r.name, r.percent, r.fatal)),
        part.map((r) => new DuckDBTimestampValue(BigInt(r.time) * 1000n)),
        part.map((r) => r.value === null ? null : BigInt(r.value)),
        part.map((r) => r.country), part.map((r) => r.deviceType), part.map((r) => r.os),
        part.map((r) => r.browser), part.map((r) => r.domain),
        part.map((r) => r.value2 == null ? null : BigInt(r.value2)), part.map((r) => r.code ?? null), part.map((r) => r.message ?? null),
        part.map(() => mark)
      ])
      appender.appendDataChunk(chunk)
    }
    appender.flushSync()
  } finally {
    appender.closeSync()
  }
}

/** Inserts the ids that are new and returns them: the rest were applied before. */
async function claimBatchIds (connection: DuckDBConnection, ids: string[], now: number): Promise<Set<string>> {
  const fresh = new Set<string>()
  for (let start = 0; start < ids.length; start += 1000) {
    const part = ids.slice(start, start + 1000)
    const reader = await connection.runAndReadAll(
      `INSERT INTO analytics_batches (id, applied_at) SELECT unnest($1::VARCHAR[]), ${Math.trunc(now)} ON CONFLICT DO NOTHING RETURNING id`,
      [listValue(part)], [LIST(VARCHAR)])
    for (const row of reader.getRowObjectsJS()) fresh.add(row.id as string)
  }
  return fresh
}

async function inTransaction<T> (connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await connection.run('BEGIN TRANSACTION')
  try {
    const result = await work()
    await connection.run('COMMIT')
    return result
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => {})
    throw error
  }
}

function bind (params: SqlParam[]): { values: DuckDBValue[], types: DuckDBType[] } {
  return {
    values: params.map((p) => Array.isArray(p) ? listValue(p) : p),
    types: params.map((p) => Array.isArray(p) ? LIST(VARCHAR) : VARCHAR)
  }
}

/**
 * DuckDB's own allocator (a jemalloc built into it) keeps what a query freed for the next one: up to 128
 * MiB before it flushes, and returns pages only when it is next busy. Flushed after any task that peaked
 * above 4 MiB, with jemalloc's background thread returning the pages, the process holds less and
 * steadier memory under load (docs/deployment.md, "Memory"). How soon it returns them is set before
 * DuckDB loads (DUCKDB_JE_MALLOC_CONF, open-store.ts).
 */
const ALLOCATOR = { allocator_flush_threshold: '4MB', allocator_background_threads: 'true' }

/**
 * Appended events stay in memory, uncompressed, until a checkpoint writes them to the file, which DuckDB
 * does once its write-ahead log passes `checkpoint_threshold` (16 MiB by default: some 20 MiB held under
 * a steady stream of events). At 4 MiB the process holds about 6 MiB of them, for more frequent, smaller
 * checkpoints (docs/deployment.md, "Memory").
 */
const CHECKPOINT = { checkpoint_threshold: '4MB' }

export async function openDuckDbStore (path: string, settings: DuckDbSettings = { memoryLimitMb: 128, threads: 2 }, rollups = true): Promise<AnalyticsStore> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  // Bounded: DuckDB would otherwise take up to 80 % of the machine's memory for its buffer pool (docs/configuration.md).
  const instance = await DuckDBInstance.create(path, { memory_limit: `${settings.memoryLimitMb}MB`, threads: String(settings.threads), ...ALLOCATOR, ...CHECKPOINT })
  const writer = await instance.connect()
  for (const statement of DDL) await writer.run(statement)
  for (const [i, rollup] of ROLLUPS.entries()) {
    const had = (await writer.runAndReadAll(`SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_name = '${rollup.table}'`)).getRowObjectsJS()[0].n !== 0n
    await writer.run(rollupDdl('duckdb', rollup))
    // Events stored before a rollup existed are rolled up once, when its table is created.
    if (!had) await writer.run(rollUpStoredSql('duckdb', i))
  }
  await writer.run(PENDING.ddl('duckdb'))
  // Append numbers only grow, past every one stored, so that a number marks one append's rows alone.
  let lastSeq = Number((await writer.runAndReadAll('SELECT coalesce(max(append_seq), 0) AS seq FROM analytics_events')).getRowObjectsJS()[0].seq)
  // One writer connection, one statement at a time: the appender and explicit transactions are per connection.
  let queue: Promise<unknown> = Promise.resolve()
  const serial = async <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work)
    queue = run.catch(() => {})
    return await run
  }

  return {
    dialect: 'duckdb',
    rollups,
    rebuildRollups: async () => await serial(async () => {
      await inTransaction(writer, async () => {
        for (const statement of rebuildRollupsSql('duckdb')) await writer.run(statement)
      })
    }),
    compactRollups: async (before: number) => {
      const { values, types } = bind([sqlTime(before)])
      const pending = pendingDays(await serial(async () => (await writer.runAndReadAll(pendingSql('duckdb'), values, types)).getRowObjectsJS()))
      // A transaction per account-day, each its own turn on the writer: writes go on between them.
      for (const day of pending) {
        await serial(async () => {
          await inTransaction(writer, async () => {
            for (const statement of compactDayStatements('duckdb', day)) {
              const bound = bind(statement.params)
              await writer.run(statement.sql, bound.values, bound.types)
            }
          })
        })
      }
      return pending.length
    },
    writeBatches: async (batches: EventBatch[], now: number) => await serial(async () => {
      await inTransaction(writer, async () => {
        const fresh = await claimBatchIds(writer, batches.map((b) => b.id), now)
        await appendRows(writer, batches.filter((b) => fresh.has(b.id)).flatMap((b) => b.rows), ++lastSeq, rollups)
      })
    }),
    appliedBatchIds: async (ids: string[]) => await serial(async () => {
      const found = new Set<string>()
      for (let start = 0; start < ids.length; start += 1000) {
        const reader = await writer.runAndReadAll('SELECT id FROM analytics_batches WHERE id IN (SELECT unnest($1::VARCHAR[]))',
          [listValue(ids.slice(start, start + 1000))], [LIST(VARCHAR)])
        for (const row of reader.getRowObjectsJS()) found.add(row.id as string)
      }
      return found
    }),
    pruneBatchIds: async (before: number) => await serial(async () => {
      await writer.run(`DELETE FROM analytics_batches WHERE applied_at < ${Math.trunc(before)}`)
    }),
    openImport: async (now: number): Promise<ImportWriter> => {
      // Its own connection: a long import transaction must not hold up the ingestion writer.
      const connection = await instance.connect()
      await connection.run('BEGIN TRANSACTION')
      const finish = async (sql: string): Promise<void> => {
        try { await connection.run(sql) } finally { connection.closeSync() }
      }
      return {
        append: async (rows) => { await appendRows(connection, rows, ++lastSeq, rollups) },
        commit: async (batchId) => {
          const fresh = await claimBatchIds(connection, [batchId], now).catch(async (error: unknown) => { await finish('ROLLBACK'); throw error })
          if (!fresh.has(batchId)) { await finish('ROLLBACK'); return false }
          await finish('COMMIT')
          return true
        },
        abort: async () => { await finish('ROLLBACK') }
      }
    },
    query: async (sql: string, params: SqlParam[]) => {
      // A connection per report: DuckDB runs them in parallel with the writer (MVCC snapshots).
      const connection = await instance.connect()
      try {
        const { values, types } = bind(params)
        return (await connection.runAndReadAll(sql, values, types)).getRowObjectsJS()
      } finally {
        connection.closeSync()
      }
    },
    exportEvents: async function * (accountId: string, start: number, end: number) {
      const connection = await instance.connect()
      try {
        const { values, types } = bind([accountId, exportTime(start), exportTime(end)])
        const result = await connection.stream(exportSql('epoch_ms(time)'), values, types)
        const names = result.columnNames()
        let rows: ExportRow[] = []
        for (;;) {
          const chunk = await result.fetchChunk()
          if (chunk === null || chunk.rowCount === 0) break
          for (const row of chunk.getRowObjects(names)) rows.push(exportRowOf(row))
          if (rows.length >= EXPORT_CHUNK_ROWS) { yield rows; rows = [] }
        }
        if (rows.length > 0) yield rows
      } finally {
        connection.closeSync()
      }
    },
    // What DuckDB's buffer manager holds: tables, indexes, events not yet checkpointed.
    memoryBytes: async () => {
      const connection = await instance.connect()
      try {
        const reader = await connection.runAndReadAll('SELECT coalesce(sum(memory_usage_bytes), 0) AS bytes FROM duckdb_memory()')
        return Number(reader.getRowObjectsJS()[0]?.bytes ?? 0)
      } finally {
        connection.closeSync()
      }
    },
    close: async () => {
      await queue
      writer.closeSync()
      instance.closeSync()
    }
  }
}
