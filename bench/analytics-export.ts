// The export of many events (default 1M) to Parquet, read back by DuckDB with the same count and sums,
// on DuckDB or PostgreSQL (the same generated events as bench/analytics-report.ts). Prints how long the
// export took and the file's size; fails if the file's count or sums differ from the store's.
//
//   node --import tsx bench/analytics-export.ts [--store duckdb|postgres] [--events 1000000]
//
// PostgreSQL uses ANALYTICS_URL or TEST_DATABASE_URL (a fresh schema, dropped afterwards). Not part of npm test.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { parseArgs } from 'node:util'
import { DuckDBInstance } from '@duckdb/node-api'
import pg from 'pg'
import { openAnalytics } from '../src/analytics/index.ts'
import { generateSql } from './analytics-report.ts'

const { values: args } = parseArgs({ strict: false, options: { store: { type: 'string', default: 'duckdb' }, events: { type: 'string', default: '1000000' } } })
const store = args.store === 'postgres' ? 'postgres' : 'duckdb'
const EVENTS = Number(args.events)
const pgUrl = process.env.ANALYTICS_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

const dir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-export-'))
const schema = `bench_${randomBytes(4).toString('hex')}`
const analytics = await openAnalytics({
  url: store === 'postgres' ? pgUrl : undefined,
  pgSchema: store === 'postgres' ? schema : undefined,
  dataDir: dir,
  resources: { resolveAccount: () => undefined, assetExists: () => true, labelsOf: () => new Map() },
  pageTokens: 'bench-page-token-key-0123456789'
})
try {
  await analytics.store.query(generateSql(store, EVENTS), [])
  const [want] = await analytics.store.query("SELECT COUNT(*) AS n, SUM(value) AS total FROM analytics_events WHERE account_id = 'acc-bench'", [])
  const file = join(dir, 'export.parquet')
  const t0 = performance.now()
  const { body } = await analytics.exportEvents('acc-bench', { start_date: '2026-10-01', end_date: '2026-11-01', format: 'parquet' })
  await pipeline(body, createWriteStream(file))
  const ms = performance.now() - t0
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  const [got] = (await connection.runAndReadAll(`SELECT COUNT(*) AS n, SUM(value) AS total FROM read_parquet('${file}')`)).getRowObjectsJS()
  connection.closeSync()
  instance.closeSync()
  assert.deepEqual([Number(got.n), Number(got.total)], [Number(want.n), Number(want.total)])
  console.log(`${store}: exported ${Number(got.n).toLocaleString('en')} events to Parquet (${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB) in ${(ms / 1000).toFixed(1)} s; DuckDB read back the same count and sum of values (${Number(got.total).toLocaleString('en')})`)
} finally {
  await analytics.close()
  if (store === 'postgres') {
    const client = new pg.Client({ connectionString: pgUrl })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(async () => { await client.end() })
  }
  rmSync(dir, { recursive: true, force: true })
}
