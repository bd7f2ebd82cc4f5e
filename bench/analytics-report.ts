// Report latency over synthetic events (default 10M, 30 days): viewing sessions as players send them,
// 300 skewed assets, 12 players, 40 domains, skewed viewers, countries and devices
// (test/analytics/support/generated-events.ts). The rows are generated inside the engine from integer
// hashes of the session's number, so DuckDB and PostgreSQL hold the very same events: with `--store both`
// every answer is compared. Every event kind a player sends is generated, the viewer-experience ones
// included, so "every metric" computes the quality metrics over real numbers. Baseline in the same run: a
// bare COUNT(*) over the same account and range. Each report runs from the raw events and from the rollup
// it may read (daily or hourly; their answers must be equal), and the all-metrics 3-dimension report is
// summed up against the goal (≤ 0.3 s) with the ratio between the two. Then the collection path's sustained ingestion rate with rollups maintained
// beside without (goal ≥ 0.8×; bench/analytics-ingest.ts), over `--ingest-events` (0 skips it).
//
//   node --import tsx bench/analytics-report.ts [--store duckdb|postgres|both] [--events 10000000] [--runs 5] [--ingest-events 1000000]
//
// PostgreSQL uses ANALYTICS_URL or TEST_DATABASE_URL (a fresh schema, dropped afterwards). Not part of npm test.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { openAnalytics, parseReportParams, type Analytics, type ReportAnswer } from '../src/analytics/index.ts'
import { reportSource } from '../src/analytics/report/run-report.ts'
import { ROLLUPS } from '../src/analytics/store/rollup.ts'
import { generateSql } from '../test/analytics/support/generated-events.ts'
import { compactionLine, measureAnalyticsIngest } from './analytics-ingest.ts'

const { values: args } = parseArgs({
  strict: false,
  options: { store: { type: 'string', default: 'duckdb' }, events: { type: 'string', default: '10000000' }, runs: { type: 'string', default: '5' }, 'ingest-events': { type: 'string', default: '1000000' } }
})
const EVENTS = Number(args.events)
const RUNS = Number(args.runs)
const INGEST_EVENTS = Number(args['ingest-events'])
/** The report the goal is about: every metric, three dimensions. */
const HEADLINE = '3 dimensions (country, device_type, browser), every metric'
const pgUrl = process.env.ANALYTICS_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const RANGE = { start_date: '2026-10-01', end_date: '2026-10-31' }

const REPORTS: Array<[string, Record<string, string>]> = [
  ['total, every metric', { ...RANGE }],
  ['3 dimensions (country, device_type, browser), every metric', { ...RANGE, dimensions: 'country,device_type,browser' }],
  ['3 dimensions, every metric but distinct viewers', { ...RANGE, dimensions: 'country,device_type,browser', metrics: 'displays,plays_requested,video_starts,replays,playthrough_25,playthrough_50,playthrough_75,playthrough_100,time_watched,avg_time_watched_per_video,play_conversion_rate,video_conversion_rate' }],
  ['3 dimensions, plays requested only', { ...RANGE, dimensions: 'country,device_type,browser', metrics: 'plays_requested' }],
  ['by asset (300 groups), top 100 by plays', { ...RANGE, dimensions: 'asset', sort: 'plays_requested', limit: '100' }],
  ['daily × country, 2 metrics', { ...RANGE, dimensions: 'country', metrics: 'displays,plays_requested', time_segment: 'day' }],
  ['filtered (US or GB; mobile) by asset and os', { ...RANGE, dimensions: 'asset,os', filters: "(country=='US'|country=='GB');device_type=='mobile'", limit: '100' }],
  ['by label (300 assets × 2 labels)', { ...RANGE, dimensions: 'label', metrics: 'displays,plays_requested,uniq_plays_requested' }]
]

const labels = new Map(Array.from({ length: 300 }, (_, i) => [`asset-${i}`, [`label-${i % 40}`, `label-parent-${i % 4}`]]))

export interface ReportFigures { store: string, baselineMs: number, reports: Array<{ name: string, source: string, medianMs: number, minMs: number, rawMedianMs: number }>, answers: ReportAnswer[] }

/** Generates the events in a fresh store, then times each report (median of `runs` after a warm-up), printing as it goes. */
export async function measureAnalyticsReports (store: 'duckdb' | 'postgres', events = EVENTS, runs = RUNS): Promise<ReportFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-report-'))
  const schema = `bench_${randomBytes(4).toString('hex')}`
  const analytics: Analytics = await openAnalytics({
    url: store === 'postgres' ? pgUrl : undefined,
    pgSchema: store === 'postgres' ? schema : undefined,
    dataDir: dir,
    resources: { resolveAccount: () => undefined, assetExists: () => true, labelsOf: () => labels },
    pageTokens: 'bench-page-token-key-0123456789'
  })
  const figures: ReportFigures = { store, baselineMs: 0, reports: [], answers: [] }
  try {
    let t0 = performance.now()
    await analytics.store.query(generateSql(store, events), [])
    if (store === 'postgres') await analytics.store.query('ANALYZE analytics_events', [])
    const count = async (table: string): Promise<number> => Number((await analytics.store.query(`SELECT COUNT(*) AS n FROM ${table}`, []))[0].n)
    assert.equal(await count('analytics_events'), events)
    console.log(`\n${store}: generated ${events.toLocaleString('en')} events in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    t0 = performance.now()
    await analytics.store.rebuildRollups()
    const seconds = (performance.now() - t0) / 1000
    if (store === 'postgres') for (const r of ROLLUPS) await analytics.store.query(`ANALYZE ${r.table}`, [])
    const rows: string[] = []
    for (const r of ROLLUPS) {
      const n = await count(r.table)
      rows.push(`${n.toLocaleString('en')} ${r.grain === 'hour' ? 'hourly' : 'daily'} rows (${(n / events).toFixed(3)} of the events)`)
    }
    console.log(`  rolled up into ${rows.join(' and ')} in ${seconds.toFixed(1)} s`)
    const time = async (work: () => Promise<unknown>): Promise<number[]> => {
      await work() // warm-up
      const times: number[] = []
      for (let r = 0; r < runs; r++) { t0 = performance.now(); await work(); times.push(performance.now() - t0) }
      return times.sort((a, b) => a - b)
    }
    const baseline = await time(async () => await analytics.store.query(
      'SELECT COUNT(*) AS n FROM analytics_events WHERE account_id = $1 AND time >= CAST($2 AS timestamp) AND time < CAST($3 AS timestamp)', ['acc-bench', '2026-10-01 00:00:00', '2026-10-31 00:00:00']))
    const base = figures.baselineMs = baseline[Math.floor(runs / 2)]
    console.log(`  ${'baseline: COUNT(*) over the range'.padEnd(62)} median ${base.toFixed(0).padStart(6)} ms`)
    // Each report from the raw events, then from the rollup it may read (goal: ≤ 0.3 s); the answers must be equal.
    for (const [name, query] of REPORTS) {
      let raw: ReportAnswer | undefined
      let answer: ReportAnswer | undefined
      const rawTimes = await time(async () => { raw = await analytics.report('acc-bench', query, { source: 'raw' }) })
      const times = await time(async () => { answer = await analytics.report('acc-bench', query) })
      assert.deepEqual(answer, raw, `rollups and raw events differ for ${name}`)
      const rawMedian = rawTimes[Math.floor(runs / 2)]
      const median = times[Math.floor(runs / 2)]
      const source = reportSource(analytics.store, parseReportParams(query, Date.now()))
      console.log(`  ${name.padEnd(62)} raw ${rawMedian.toFixed(0).padStart(6)} ms  ${source.padStart(6)} ${median.toFixed(0).padStart(6)} ms (min ${times[0].toFixed(0)})  ×${(rawMedian / median).toFixed(1)} faster  ×${(median / base).toFixed(1)} baseline  (${answer?.total_count} rows)`)
      figures.reports.push({ name, source, medianMs: median, minMs: times[0], rawMedianMs: rawMedian })
      if (answer !== undefined) figures.answers.push(answer)
    }
  } finally {
    await analytics.close()
    rmSync(dir, { recursive: true, force: true })
    if (store === 'postgres') {
      const client = new pg.Client({ connectionString: pgUrl })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    }
  }
  return figures
}

async function main (): Promise<void> {
  const stores = args.store === 'both' ? ['duckdb', 'postgres'] as const : [args.store as 'duckdb' | 'postgres']
  const results = []
  for (const store of stores) {
    const figures = await measureAnalyticsReports(store)
    results.push(figures)
    const headline = figures.reports.find((r) => r.name === HEADLINE)
    if (headline !== undefined) {
      console.log(`  ${store}, ${HEADLINE}, ${EVENTS.toLocaleString('en')} events: from the ${headline.source} rollup ${(headline.medianMs / 1000).toFixed(3)} s (goal ≤ 0.3 s), ` +
        `from raw events ${(headline.rawMedianMs / 1000).toFixed(3)} s, raw / rollups ×${(headline.rawMedianMs / headline.medianMs).toFixed(1)}`)
    }
    if (INGEST_EVENTS > 0) {
      const ingest = { store, events: INGEST_EVENTS, batch: 100, concurrency: 32 }
      const without = await measureAnalyticsIngest({ ...ingest, rollups: false })
      const withRollups = await measureAnalyticsIngest({ ...ingest, rollups: true })
      console.log(`  ${store} ingestion of ${INGEST_EVENTS.toLocaleString('en')} events (batches of 100, 32 concurrent), until in the store: ` +
        `with rollups ${withRollups.sustainedPerSecond.toFixed(0)} events/s, without ${without.sustainedPerSecond.toFixed(0)} events/s, ` +
        `with / without ×${(withRollups.sustainedPerSecond / without.sustainedPerSecond).toFixed(2)} (goal ≥ 0.8)`)
      if (withRollups.compaction !== undefined) console.log(`  ${store} ${compactionLine(withRollups.compaction)}`)
    }
  }
  if (results.length === 2) {
    assert.deepEqual(results[0].answers, results[1].answers)
    console.log('\nDuckDB and PostgreSQL gave identical answers to every report (the same sketches on both).')
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main()
