import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { DuckDBInstance } from '@duckdb/node-api'
import { analyticsCombos, batch, buildAnalyticsApp, DAY, type AnalyticsTestApp } from './support/harness.ts'

const EXPORTS = '/v2/analytics/exports'

/** Each row: parameters, and the 400 message they must get. */
const BAD: Array<{ name: string, query: Record<string, string>, message: string }> = [
  { name: 'no start_date', query: { format: 'csv' }, message: 'start_date is required (YYYY-MM-DD).' },
  { name: 'a start_date that is not a day', query: { start_date: '2026-02-30', format: 'csv' }, message: 'start_date must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ).' },
  { name: 'an end_date that is not a time', query: { start_date: '2026-11-22', end_date: '2026-11-23T25:00:00Z', format: 'csv' }, message: 'end_date must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ).' },
  { name: 'an end_date equal to start_date', query: { start_date: '2026-11-22', end_date: '2026-11-22', format: 'csv' }, message: 'end_date must be after start_date (it is exclusive).' },
  { name: 'no format', query: { ...DAY }, message: 'format is required: one of parquet, csv, ndjson.' },
  { name: 'an unknown format', query: { ...DAY, format: 'xlsx' }, message: 'format must be one of parquet, csv, ndjson.' }
]

// Two views with every kind of number an event carries, and a message a CSV must quote.
const VIEW = [
  { name: 'play_requested', time: '2026-11-22T09:00:00Z' },
  { name: 'video_start', time: '2026-11-22T09:00:01Z', startup_ms: 640 },
  { name: 'rendition_change', time: '2026-11-22T09:00:01Z', height: 720, bitrate: 2_800_000 },
  { name: 'rebuffer_start', time: '2026-11-22T09:00:05Z' },
  { name: 'rebuffer_end', time: '2026-11-22T09:00:06Z', duration_ms: 1200 },
  { name: 'playthrough', time: '2026-11-22T09:00:30Z', percent: 50 },
  { name: 'error', time: '2026-11-22T09:00:40Z', fatal: true, code: 'fragLoadError', message: 'HTTP 404, "segment" gone' },
  { name: 'time_watched', time: '2026-11-22T09:00:41Z', value: 39_000 }
]

for (const combo of analyticsCombos().filter((c) => c.resources === 'sqlite')) {
  describe(`GET ${EXPORTS}, ${combo.name}`, { skip: combo.skip }, () => {
    let t: AnalyticsTestApp
    let scratch: string
    let stored: { n: number, values: number, heights: number }
    before(async () => {
      t = await buildAnalyticsApp(combo)
      scratch = mkdtempSync(join(tmpdir(), 'reelhouse-export-test-'))
      const asset = await t.asset()
      for (let i = 0; i < 2; i++) assert.equal((await t.collect(batch(t.admin.accountCode, asset, VIEW))).statusCode, 204)
      // Another account's events are never exported.
      const other = await t.otherAccount()
      const theirs = await t.asset(other)
      assert.equal((await t.collect(batch(other.accountCode, theirs, VIEW))).statusCode, 204)
      await t.flush()
      const analytics = await t.ctx.analytics.get()
      const [row] = await analytics.store.query('SELECT COUNT(*) AS n, SUM(value) AS "values", SUM(value2) AS heights FROM analytics_events WHERE account_id = $1', [t.admin.accountId])
      stored = { n: Number(row.n), values: Number(row.values), heights: Number(row.heights) }
      assert.equal(stored.n, 16)
    })
    after(async () => {
      await t?.close()
      rmSync(scratch, { recursive: true, force: true })
    })

    for (const row of BAD) {
      it(`answers 400 to ${row.name}`, async () => {
        const res = await t.signed('GET', EXPORTS, { params: row.query })
        assert.equal(res.statusCode, 400, res.body)
        assert.deepEqual([res.json().code, res.json().message], ['validation_failed', row.message])
      })
    }

    it('refuses every role but the administrator', async () => {
      for (const role of ['manager', 'analytics_only', 'read_only', 'upload_only'] as const) {
        const res = await t.signed('GET', EXPORTS, { params: { ...DAY, format: 'csv' }, as: await t.userWithRole(role) })
        assert.deepEqual([res.statusCode, res.json().message], [403, `Role ${role} may not import analytics.`])
      }
    })

    it('writes Parquet with DuckDB that DuckDB reads back with the same count and sums', async () => {
      const res = await t.signed('GET', EXPORTS, { params: { ...DAY, format: 'parquet' } })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.headers['content-type'], 'application/vnd.apache.parquet')
      assert.equal(res.headers['content-disposition'], 'attachment; filename="analytics-events-2026-11-22-2026-11-23.parquet"')
      const file = join(scratch, `export-${combo.store}.parquet`)
      writeFileSync(file, res.rawPayload)
      const instance = await DuckDBInstance.create(':memory:')
      const connection = await instance.connect()
      try {
        const [read] = (await connection.runAndReadAll(`SELECT COUNT(*) AS n, SUM(value) AS "values", SUM(value2) AS heights,
          COUNT(*) FILTER (WHERE event = 'error' AND fatal) AS failures, COUNT(*) FILTER (WHERE event = 'playthrough' AND percent = 50) AS halves,
          MIN(time) AS first FROM read_parquet('${file}')`)).getRowObjectsJS()
        assert.deepEqual({ n: Number(read.n), values: Number(read.values), heights: Number(read.heights) }, stored)
        assert.deepEqual([Number(read.failures), Number(read.halves)], [2, 2])
        assert.equal((read.first as Date).toISOString(), '2026-11-22T09:00:00.000Z')
      } finally {
        connection.closeSync()
        instance.closeSync()
      }
    })

    it('streams CSV with a header and quoted messages, and NDJSON one event a line', async () => {
      const csv = await t.signed('GET', EXPORTS, { params: { ...DAY, format: 'csv' } })
      assert.equal(csv.statusCode, 200, csv.body)
      assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8')
      const lines = csv.body.trimEnd().split('\r\n')
      assert.equal(lines[0], 'time,event,percent,fatal,asset_id,player_id,session_id,viewer_id,value,value2,code,message,country,device_type,os,browser,domain')
      assert.equal(lines.length, 1 + stored.n)
      assert.ok(lines.some((line) => line.includes(',error,,true,') && line.includes(',fragLoadError,"HTTP 404, ""segment"" gone",')), lines.join('\n'))

      const nd = await t.signed('GET', EXPORTS, { params: { ...DAY, format: 'ndjson' } })
      assert.equal(nd.statusCode, 200, nd.body)
      const events = nd.body.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
      assert.equal(events.length, stored.n)
      assert.equal(events.reduce((sum, e) => sum + Number(e.value ?? 0), 0), stored.values)
      assert.deepEqual(events.find((e) => e.event === 'video_start'), {
        time: '2026-11-22T09:00:01.000Z', event: 'video_start', percent: null, fatal: null, asset_id: events[0].asset_id, player_id: 'unknown',
        session_id: events.find((e) => e.event === 'video_start')?.session_id, viewer_id: `s:${String(events.find((e) => e.event === 'video_start')?.session_id)}`,
        value: 640, value2: null, code: null, message: null, country: 'unknown', device_type: 'unknown.devicetype', os: 'unknown.os', browser: 'unknown.browser', domain: 'unknown'
      })
      const empty = await t.signed('GET', EXPORTS, { params: { start_date: '2026-11-20', end_date: '2026-11-21', format: 'ndjson' } })
      assert.deepEqual([empty.statusCode, empty.body], [200, ''])
    })
  })
}
