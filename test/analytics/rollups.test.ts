import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { DIMENSIONS, METRICS, parseReportParams, TIME_SEGMENTS, type Dimension } from '../../src/analytics/index.ts'
import { reportSource } from '../../src/analytics/report/run-report.ts'
import { PENDING, ROLLUPS } from '../../src/analytics/store/rollup.ts'
import { openTestAnalytics, STORES, type TestAnalytics } from './support/harness.ts'

// Rollups answer exactly as raw events do: 200 random reports (dimensions, filters, segments, metrics)
// over 2,000 random events, each run from the rollups and from the raw events. One in three keeps to what
// the daily rollup holds (its dimensions and filters, whole days, no hourly segments) and must be read
// from it. A seeded generator keeps the cases the same on every run.
function generator (seed: number): () => number {
  let x = seed
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648
    return x / 2147483648
  }
}
const random = generator(36)
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
const VALUES: Record<string, string[]> = {
  asset: ['asset-1', 'asset-2', 'asset-3'], player_id: ['p-1', 'p-2'], country: ['US', 'GB', 'DE'], domain: ['a.com', 'b.org'],
  device_type: ['desktop', 'mobile'], os: ['windows', 'ios'], browser: ['chrome', 'safari'], label: ['lbl-parent', 'lbl-child', 'unknown']
}
const UA = {
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  mobile: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1'
}
const NAMES = ['display', 'play_requested', 'play_requested', 'video_start', 'replay', 'playthrough', 'time_watched', 'rebuffer_start',
  'rebuffer_end', 'rendition_change', 'error', 'playhead_update']

function randomEvent (base: number): Record<string, unknown> {
  const name = pick(NAMES)
  const time = base + Math.floor(random() * 6 * 86_400_000)
  switch (name) {
    case 'playthrough': return { name, time, percent: pick([25, 50, 75, 100]) }
    case 'time_watched': return { name, time, value: Math.floor(random() * 120_000) }
    case 'video_start': return { name, time, startup_ms: Math.floor(random() * random() * 20_000) }
    case 'rebuffer_end': return { name, time, duration_ms: Math.floor(random() * 5000) }
    case 'rendition_change': return { name, time, height: pick([360, 720, 1080]), bitrate: pick([800_000, 3_000_000, 6_000_000]) }
    case 'error': return { name, time, fatal: random() < 0.5, code: 'e', message: 'm' }
    default: return { name, time }
  }
}

const DAILY_DIMENSIONS: Dimension[] = ['country', 'device_type', 'os', 'browser']

function randomQuery (daily: boolean): Record<string, string> {
  const dimensions = daily ? DAILY_DIMENSIONS : DIMENSIONS
  const dims = [...dimensions].sort(() => random() - 0.5).slice(0, Math.floor(random() * 4))
  const day = 15 + Math.floor(random() * 4)
  const query: Record<string, string> = {
    start_date: daily || random() < 0.5 ? `2026-11-${day}` : `2026-11-${day}T${String(Math.floor(random() * 24)).padStart(2, '0')}:00:00Z`,
    end_date: `2026-11-${day + 1 + Math.floor(random() * 4)}`,
    time_segment: pick(daily ? TIME_SEGMENTS.filter((s) => s !== 'hour') : TIME_SEGMENTS)
  }
  if (dims.length > 0) query.dimensions = dims.join(',')
  // A few metrics each (every metric is met many times over the 200): the all-metrics query costs DuckDB
  // some 0.3 s to plan on a busy machine, run once at the end instead.
  query.metrics = [...METRICS].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 5)).join(',')
  if (random() < 0.5) {
    const dim = pick(dimensions)
    const other = pick(dimensions)
    query.filters = `${dim}${pick(['==', '!='])}'${pick(VALUES[dim])}'${pick([';', '|'])}${other}=='${pick(VALUES[other])}'`
  }
  return query
}

for (const store of STORES) {
  describe(`rollups on ${store.name}`, { skip: store.skip }, () => {
    let t: TestAnalytics
    before(async () => {
      t = await openTestAnalytics(store.name)
      const base = Date.parse('2026-11-15T12:00:00Z')
      for (let b = 0; b < 40; b++) {
        const device = pick(['desktop', 'mobile'] as const)
        await t.analytics.collect({
          account_code: 'code-a', session_id: `s-${b}`, asset_id: pick(VALUES.asset), player_id: pick(VALUES.player_id),
          device: { id: `dev-${Math.floor(random() * 25)}`, user_agent: UA[device] }, country: pick(VALUES.country), domain: pick(VALUES.domain),
          events: Array.from({ length: 50 }, () => randomEvent(base))
        })
        // Several writes, each rolled up on its own.
        if (b % 10 === 9) await t.analytics.flush()
      }
    })
    after(async () => { await t?.close() })

    it('answers 200 random reports from rollups exactly as from raw events', async () => {
      let fromRollups = 0
      const sources = { raw: 0, hourly: 0, daily: 0 }
      for (let i = 0; i < 200; i++) {
        const daily = i % 3 === 0
        const query = randomQuery(daily)
        const source = reportSource(t.analytics.store, parseReportParams(query, t.clock.now()))
        if (daily) assert.equal(source, 'daily', JSON.stringify(query))
        sources[source]++
        const raw = await t.analytics.report('acc-a', query, { source: 'raw' })
        const rolled = await t.analytics.report('acc-a', query)
        assert.deepEqual(rolled, raw, JSON.stringify(query))
        if (raw.total_count > 0) fromRollups++
      }
      // The cases are not all empty answers, and both rollups serve many.
      assert.ok(fromRollups > 100, `${fromRollups} of 200 reports had rows`)
      assert.ok(sources.daily >= 67 && sources.hourly > 40, JSON.stringify(sources))
      const all = { start_date: '2026-11-15', end_date: '2026-11-22', dimensions: 'asset,country,device_type', time_segment: 'day' }
      assert.deepEqual(await t.analytics.report('acc-a', all), await t.analytics.report('acc-a', all, { source: 'raw' }))
    })

    it('rebuilds both rollups with the rows the ingestor wrote', async () => {
      // Each rollup's rows merged per key: ingestion appends rows per batch, a rebuild writes them merged.
      const merged = async (): Promise<unknown[]> => await Promise.all(ROLLUPS.map(async (r) => {
        const keys = ['account_id', 'time', ...r.columns, 'kind', 'bucket', 'reg'].join(', ')
        return await t.analytics.store.query(`SELECT ${keys}, CAST(SUM(n) AS BIGINT) AS n, CAST(SUM(total) AS BIGINT) AS total,
          CAST(SUM(total2) AS BIGINT) AS total2, MAX(rho) AS rho FROM ${r.table} GROUP BY ${keys} ORDER BY ${keys}`, [])
      }))
      // Written again after a restart: its rows are rolled up alone, not with those written before it.
      await t.reopen()
      await t.analytics.collect({ account_code: 'code-a', session_id: 'after-restart', asset_id: 'asset-1', events: [randomEvent(Date.parse('2026-11-15T12:00:00Z'))] })
      await t.analytics.flush()
      const written = await merged()
      await t.analytics.store.rebuildRollups()
      assert.deepEqual(await merged(), written)
    })

    // Every rollup row in key order, as stored.
    const stored = async (): Promise<unknown[]> => await Promise.all(ROLLUPS.map(async (r) => {
      const columns = ['account_id', 'time', ...r.columns, 'kind', 'bucket', 'reg', 'n', 'total', 'total2', 'rho'].join(', ')
      return await t.analytics.store.query(`SELECT ${columns} FROM ${r.table} ORDER BY ${columns}`, [])
    }))
    const rowsIn = async (table: string, time: string): Promise<number> =>
      Number((await t.analytics.store.query(`SELECT COUNT(*) AS n FROM ${table} WHERE time = CAST($1 AS TIMESTAMP)`, [time]))[0].n)
    const pendingHours = async (): Promise<string[]> => (await t.analytics.store.query(`SELECT DISTINCT CAST(hour AS VARCHAR) AS hour FROM ${PENDING.table} ORDER BY hour`, []))
      .map((row) => String(row.hour).slice(0, 16))
    // One viewing session sent twice, in an hour no other event is in (a player retrying with new batch ids): each write appends its own rows.
    const session = (hour: string): Record<string, unknown> => ({
      account_code: 'code-a', session_id: `twice-${hour}`, asset_id: 'asset-2', device: { id: 'dev-twice', user_agent: UA.desktop }, country: 'DE',
      events: [{ name: 'display', time: `${hour}:00:01Z` }, { name: 'play_requested', time: `${hour}:00:02Z` }, { name: 'video_start', time: `${hour}:00:03Z`, startup_ms: 850 }]
    })
    const sendTwice = async (hour: string): Promise<void> => {
      for (let i = 0; i < 2; i++) {
        await t.analytics.collect(session(hour))
        await t.analytics.flush()
      }
    }

    it('compacts the hours before the current one into the rows a rebuild writes, and reports answer as before', async () => {
      const closed = '2026-11-21T20'
      const current = '2026-11-22T10' // the test clock's hour
      await sendTwice(closed)
      await sendTwice(current)
      assert.equal(await rowsIn(ROLLUPS[0].table, '2026-11-21 20:00:00'), 6, 'three kinds, written twice')
      const queries = [
        { start_date: '2026-11-15', end_date: '2026-11-23', dimensions: 'country,device_type', time_segment: 'day' },
        { start_date: '2026-11-21T19:00:00Z', end_date: '2026-11-22T11:00:00Z', dimensions: 'asset', time_segment: 'hour' }
      ]
      const answers = await Promise.all(queries.map(async (q) => await t.analytics.report('acc-a', q)))

      assert.ok(await t.analytics.store.compactRollups(Date.parse(`${current}:00:00Z`)) > 0)
      assert.equal(await rowsIn(ROLLUPS[0].table, '2026-11-21 20:00:00'), 3, 'one row per key')
      assert.equal(await rowsIn(ROLLUPS[0].table, '2026-11-22 10:00:00'), 6, 'the hour under way is left to fill')
      assert.deepEqual(await pendingHours(), ['2026-11-22 10:00'])
      for (const [i, q] of queries.entries()) {
        assert.deepEqual(await t.analytics.report('acc-a', q), answers[i])
        assert.deepEqual(await t.analytics.report('acc-a', q, { source: 'raw' }), answers[i])
      }

      // Once every hour is merged, the rollups hold exactly what a rebuild from the events writes.
      await t.analytics.store.compactRollups(Date.parse('2026-12-01T00:00:00Z'))
      assert.deepEqual(await pendingHours(), [])
      const compacted = await stored()
      await t.analytics.store.rebuildRollups()
      assert.deepEqual(await stored(), compacted)
    })

    it('compacts in the background after a flush, once per interval', async () => {
      await t.reopen({ ingest: { flushIntervalMs: 20, compactIntervalMs: 0 } })
      await sendTwice('2026-11-21T22')
      for (let waited = 0; (await pendingHours()).length > 0; waited += 50) {
        assert.ok(waited < 20_000, `still pending: ${(await pendingHours()).join(', ')}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      assert.equal(await rowsIn(ROLLUPS[0].table, '2026-11-21 22:00:00'), 3)
      await t.reopen()
    })

    it('commits an import and the ingestor\'s writes into the same hour side by side', async () => {
      const hour = Date.parse('2026-11-21T23:00:00Z')
      const row = { accountId: 'acc-a', assetId: 'asset-1', playerId: 'p-1', sessionId: 'import-1', viewerId: 'd:import', name: 'display' as const, time: hour + 5000, percent: null, value: null, country: 'US', deviceType: 'desktop', os: 'windows', browser: 'chrome', domain: 'a.com' }
      const writer = await t.analytics.store.openImport(t.clock.now())
      await writer.append([row, { ...row, time: hour + 6000 }])
      // While the import is open, a live write marks the same account and hour, and commits first.
      await t.analytics.collect({ account_code: 'code-a', session_id: 'live-1', asset_id: 'asset-1', events: [{ name: 'display', time: '2026-11-21T23:00:07Z' }] })
      await t.analytics.flush()
      assert.equal(await writer.commit('import-same-hour'), true)
      await t.analytics.store.compactRollups(Date.parse('2026-11-22T00:00:00Z'))
      const displays = await t.analytics.report('acc-a', { start_date: '2026-11-21T23:00:00Z', end_date: '2026-11-22T00:00:00Z', metrics: 'displays' })
      assert.equal(displays.results[0].data[0].metrics.displays, 3)
    })

    it('holds a batch in both rollups once the ingestor has written it (the same transaction)', async () => {
      const daily = { start_date: '2026-11-22', end_date: '2026-11-23', metrics: 'displays' }
      const hourly = { ...daily, time_segment: 'hour' }
      const displays = async (query: Record<string, string>): Promise<number> =>
        (await t.analytics.report('acc-a', query)).results.reduce((sum, r) => sum + (r.data[0]?.metrics.displays ?? 0), 0)
      assert.equal(reportSource(t.analytics.store, parseReportParams(daily, t.clock.now())), 'daily')
      assert.equal(reportSource(t.analytics.store, parseReportParams(hourly, t.clock.now())), 'hourly')
      const before = [await displays(daily), await displays(hourly)]
      await t.analytics.collect({ account_code: 'code-a', session_id: 'fresh', asset_id: 'asset-1', events: [{ name: 'display', time: '2026-11-22T09:00:00Z' }] })
      await t.analytics.flush()
      assert.deepEqual([await displays(daily), await displays(hourly)], before.map((n) => n + 1))
    })
  })
}
