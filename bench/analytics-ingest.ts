// Sustained analytics ingestion: events per second through the whole collection path (JSON parse,
// validation, user agent, spool write + fdatasync, background batches into the store), measured until
// the last event is in the store. Baseline in the same run: writing the same rows straight into the
// store (no validation, no spool), the ceiling the collection path can approach.
//
//   node --import tsx bench/analytics-ingest.ts [--store duckdb|postgres] [--events 1000000] [--batch 100] [--concurrency 32]
//
// PostgreSQL uses ANALYTICS_URL or TEST_DATABASE_URL (a fresh schema, dropped afterwards). Not part of npm test.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { openAnalytics, type EventRow } from '../src/analytics/index.ts'
import { ManualClock } from '../src/lib/clock.ts'
import { ROLLUPS } from '../src/analytics/store/rollup.ts'

const { values: args } = parseArgs({
  strict: false,
  options: {
    store: { type: 'string', default: 'duckdb' },
    events: { type: 'string', default: '1000000' },
    batch: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '32' }
  }
})
const pgUrl = process.env.ANALYTICS_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  'Roku/DVP-12.5 (12.5.0.4178-88)'
]
const NAMES = ['display', 'play_requested', 'video_start', 'playhead_update', 'playhead_update', 'playhead_update', 'time_watched', 'playthrough']
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'IN', 'CA']
const clock = new ManualClock()
const now = clock.now()

/** A player's batch as raw JSON bytes, the way the HTTP layer receives it. */
function body (n: number, size: number): Buffer {
  const events = Array.from({ length: size }, (_, i) => {
    const name = NAMES[(n + i) % NAMES.length]
    return { name, time: now - 60_000 + i * 100, ...(name === 'time_watched' ? { value: 2500 } : name === 'playthrough' ? { percent: 25 } : {}) }
  })
  return Buffer.from(JSON.stringify({
    account_code: 'bench', session_id: `s-${n}`, player_id: 'p-1', asset_id: `asset-${n % 1000}`,
    device: { id: `d-${n % 50_000}`, user_agent: UAS[n % UAS.length] }, domain: 'example.com', country: COUNTRIES[n % COUNTRIES.length], events
  }))
}

/** Rollup rows before and after merging every pending hour, and how long the merge took. */
export interface CompactionFigures { before: number[], after: number[], ms: number }
export interface IngestFigures { store: string, events: number, acceptedPerSecond: number, sustainedPerSecond: number, baselinePerSecond: number, ratio: number, compaction?: CompactionFigures }

export async function measureAnalyticsIngest (options: { store: 'duckdb' | 'postgres', events: number, batch: number, concurrency: number, rollups?: boolean }): Promise<IngestFigures> {
  const { store, batch: BATCH, concurrency: CONCURRENCY } = options
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-ingest-'))
  const schema = `bench_${randomBytes(4).toString('hex')}`
  const url = store === 'postgres' ? pgUrl : undefined
  const analytics = await openAnalytics({
    url,
    pgSchema: store === 'postgres' ? schema : undefined,
    dataDir: dir,
    resources: { resolveAccount: () => ({ accountId: 'acc-bench' }), assetExists: () => true, labelsOf: () => new Map() },
    pageTokens: 'bench-page-token-key-0123456789',
    clock,
    rollups: options.rollups ?? true,
    ingest: { flushIntervalMs: 500 }
  })
  try {
    const batches = Math.ceil(options.events / BATCH)
    const bodies = Array.from({ length: Math.min(batches, 2000) }, (_, i) => body(i, BATCH))
    let next = 0
    const started = performance.now()
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < batches) {
        const n = next++
        await analytics.collect(bodies[n % bodies.length], { ip: '10.0.0.1' })
      }
    }))
    const accepted = performance.now()
    await analytics.flush()
    const stored = performance.now()
    const events = batches * BATCH
    const collectRate = events / ((stored - started) / 1000)

    // With rollups, each write appended its own rows: merge them all, as the ingestor does hour by hour.
    let compaction: CompactionFigures | undefined
    if (options.rollups ?? true) {
      const rows = async (): Promise<number[]> => await Promise.all(ROLLUPS.map(async (r) =>
        Number((await analytics.store.query(`SELECT COUNT(*) AS n FROM ${r.table}`, []))[0].n)))
      const before = await rows()
      const t0 = performance.now()
      await analytics.store.compactRollups(now + 86_400_000)
      compaction = { before, ms: performance.now() - t0, after: await rows() }
    }

    // Baseline: the same number of rows written straight into the store, 50,000 per transaction.
    const row: EventRow = { accountId: 'acc-base', assetId: 'a', playerId: 'p', sessionId: 's', viewerId: 'd:1', name: 'display', time: now, percent: null, value: null, country: 'US', deviceType: 'desktop', os: 'windows', browser: 'chrome', domain: 'example.com' }
    const base = performance.now()
    for (let done = 0; done < events; done += 50_000) {
      await analytics.store.writeBatches([{ id: `base-${done}`, rows: Array.from({ length: Math.min(50_000, events - done) }, () => row) }], now)
    }
    const baseRate = events / ((performance.now() - base) / 1000)

    return { store, events, acceptedPerSecond: events / ((accepted - started) / 1000), sustainedPerSecond: collectRate, baselinePerSecond: baseRate, ratio: collectRate / baseRate, compaction }
  } finally {
    await analytics.close()
    rmSync(dir, { recursive: true, force: true })
    if (url !== undefined) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    }
  }
}

export function compactionLine (c: CompactionFigures): string {
  return `compaction: ${ROLLUPS.map((r, i) => `${r.table} ${c.before[i].toLocaleString('en')} → ${c.after[i].toLocaleString('en')} rows`).join(', ')}, in ${(c.ms / 1000).toFixed(2)} s`
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const batch = Number(args.batch)
  const concurrency = Number(args.concurrency)
  const without = await measureAnalyticsIngest({ store: args.store as 'duckdb' | 'postgres', events: Number(args.events), batch, concurrency, rollups: false })
  const f = await measureAnalyticsIngest({ store: args.store as 'duckdb' | 'postgres', events: Number(args.events), batch, concurrency, rollups: true })
  console.log(`analytics ingest on ${f.store}: ${f.events.toLocaleString('en')} events in batches of ${batch}, ${concurrency} concurrent`)
  console.log(`  accepted (durable in the spool): ${f.acceptedPerSecond.toFixed(0)} events/s`)
  console.log(`  sustained (until in the store):  ${f.sustainedPerSecond.toFixed(0)} events/s   (aim ≥ 50000)`)
  console.log(`  baseline, rows straight into the store: ${f.baselinePerSecond.toFixed(0)} events/s   ratio ${f.ratio.toFixed(2)}`)
  if (f.compaction !== undefined) console.log(`  ${compactionLine(f.compaction)}`)
  console.log(`  sustained without rollups:        ${without.sustainedPerSecond.toFixed(0)} events/s   with/without ${(f.sustainedPerSecond / without.sustainedPerSecond).toFixed(2)} (aim ≥ 0.8)`)
}
