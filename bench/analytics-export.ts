// The export of many events (default 1M) to Parquet, read back by DuckDB with the same count, sums and
// count of each kind, on DuckDB or PostgreSQL (the same generated events as bench/analytics-report.ts;
// test/analytics/export-parquet.test.ts checks 20,000). Prints how long the export took, the file's size
// and the figures; fails if any of the file's figures differ from the store's.
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
import pg from 'pg'
import { openAnalytics } from '../src/analytics/index.ts'
import { generateSql } from '../test/analytics/support/generated-events.ts'
import { parquetFigures, storedFigures } from '../test/analytics/support/parquet-readback.ts'

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
  const range = { start_date: '2026-10-01', end_date: '2026-11-01' }
  const want = await storedFigures(analytics.store, 'acc-bench', range.start_date, range.end_date)
  const file = join(dir, 'export.parquet')
  const t0 = performance.now()
  const { body } = await analytics.exportEvents('acc-bench', { ...range, format: 'parquet' })
  await pipeline(body, createWriteStream(file))
  const ms = performance.now() - t0
  const got = await parquetFigures(file)
  assert.deepEqual(got, want, 'the Parquet file differs from the store')
  console.log(`${store}: exported ${got.count.toLocaleString('en')} events to Parquet (${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB) in ${(ms / 1000).toFixed(1)} s`)
  console.log(`  DuckDB read back the same count, sums (value ${got.value.toLocaleString('en')}, value2 ${got.value2.toLocaleString('en')}), ` +
    `${got.codes.toLocaleString('en')} error codes, ${got.sessions.toLocaleString('en')} sessions and ${got.kinds.length} kinds with their counts`)
} finally {
  await analytics.close()
  if (store === 'postgres') {
    const client = new pg.Client({ connectionString: pgUrl })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(async () => { await client.end() })
  }
  rmSync(dir, { recursive: true, force: true })
}
