import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { DIMENSIONS, METRICS } from '../../src/analytics/index.ts'
import { analyticsCombos, buildAnalyticsApp, DAY, type AnalyticsTestApp } from './support/harness.ts'

const REPORTS = '/v2/analytics/reports'
const SHAPE = '/v2/analytics/reports/{account|asset/ID}/performance/{total|videos|countries|domains|device_types}[/value]/{YYYY-MM-DD[...YYYY-MM-DD]}'

/** Each row: a path and parameters, the status and the message it must get. */
const BAD: Array<{ name: string, path?: string, query: Record<string, string>, status: number, message: string, code?: string }> = [
  { name: 'no start_date', query: {}, status: 400, message: 'start_date is required (YYYY-MM-DD).' },
  { name: 'a start_date that is not a day', query: { start_date: '2026-02-30' }, status: 400, message: 'start_date must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ).' },
  { name: 'an end_date equal to start_date', query: { start_date: '2026-11-22', end_date: '2026-11-22' }, status: 400, message: 'end_date must be after start_date (it is exclusive).' },
  { name: 'more than 366 days', query: { start_date: '2025-11-01', end_date: '2026-11-03' }, status: 400, message: 'The date range must not exceed 366 days.' },
  { name: 'an unknown dimension', query: { ...DAY, dimensions: 'city' }, status: 400, message: `dimensions: unknown dimension 'city'; use ${DIMENSIONS.join(', ')}.` },
  { name: 'four dimensions', query: { ...DAY, dimensions: 'asset,country,os,browser' }, status: 400, message: 'dimensions: at most 3 dimensions.' },
  { name: 'an unknown metric', query: { ...DAY, metrics: 'plays' }, status: 400, message: `metrics: unknown metric 'plays'; use ${METRICS.join(', ')}.` },
  { name: 'an unknown time_segment', query: { ...DAY, time_segment: 'minute' }, status: 400, message: 'time_segment must be one of hour, day, week, month, total.' },
  { name: 'a sort on a dimension not reported', query: { ...DAY, sort: 'country' }, status: 400, message: "sort: 'country' is neither a metric nor one of the report's dimensions." },
  { name: 'a limit of 1001', query: { ...DAY, limit: '1001' }, status: 400, code: 'limit_invalid', message: 'limit must be an integer from 1 to 1000.' },
  { name: 'a filter with one =', query: { ...DAY, filters: "country='US'" }, status: 400, message: "filters: unexpected character '=' at position 8." },
  { name: 'a filter on an unknown dimension', query: { ...DAY, filters: "city=='Paris'" }, status: 400, message: `filters: unknown dimension 'city' at position 1; use one of ${DIMENSIONS.join(', ')}.` },
  { name: 'a forged page_token', query: { ...DAY, page_token: 'forged.token' }, status: 400, code: 'page_token_invalid', message: 'Parameter page_token is not a valid page token.' },
  { name: 'a classic path without the report name', path: `${REPORTS}/account/total/2026-11-22`, query: {}, status: 400, message: "Only the performance report is available, not 'total'." },
  { name: 'a classic path with an unknown dimension', path: `${REPORTS}/account/performance/cities/2026-11-22`, query: {}, status: 400, message: `The report path must look like ${SHAPE}.` },
  { name: 'a classic path with a bad range', path: `${REPORTS}/account/performance/total/2026-11-22..2026-11-23`, query: {}, status: 400, message: "The date range must be YYYY-MM-DD or YYYY-MM-DD...YYYY-MM-DD (end exclusive), not '2026-11-22..2026-11-23'." },
  { name: 'a classic breakdown_by of hours', path: `${REPORTS}/account/performance/total/2026-11-22`, query: { breakdown_by: 'hour' }, status: 400, message: 'breakdown_by must be one of day, week, month.' },
  { name: 'a retention query without asset_id', path: '/v2/analytics/retention', query: { ...DAY }, status: 400, message: 'asset_id is required (at most 128 characters).' },
  { name: 'a retention query without start_date', path: '/v2/analytics/retention', query: { asset_id: 'a' }, status: 400, message: 'start_date is required (YYYY-MM-DD).' },
  { name: 'a retention query with an end before its start', path: '/v2/analytics/retention', query: { asset_id: 'a', start_date: '2026-11-22', end_date: '2026-11-21' }, status: 400, message: 'end_date must be after start_date (it is exclusive).' },
  { name: 'a failures query without start_date', path: '/v2/analytics/failures', query: {}, status: 400, message: 'start_date is required (YYYY-MM-DD).' },
  { name: 'a failures query with an end before its start', path: '/v2/analytics/failures', query: { start_date: '2026-11-22', end_date: '2026-11-21' }, status: 400, message: 'end_date must be after start_date (it is exclusive).' },
  { name: 'a failures query with an empty asset_id', path: '/v2/analytics/failures', query: { ...DAY, asset_id: '' }, status: 400, message: 'asset_id must be 1 to 128 characters.' },
  { name: 'a failures query with a long asset_id', path: '/v2/analytics/failures', query: { ...DAY, asset_id: 'a'.repeat(129) }, status: 400, message: 'asset_id must be 1 to 128 characters.' },
  { name: 'a classic order_by of an unknown metric', path: `${REPORTS}/account/performance/videos/2026-11-22`, query: { order_by: 'clicks' }, status: 400, message: 'order_by must be one of plays, displays, video_starts, time_watched, replays.' }
]

for (const combo of analyticsCombos()) {
  describe(`GET ${REPORTS}: bad input, ${combo.name}`, { skip: combo.skip }, () => {
    let t: AnalyticsTestApp
    before(async () => { t = await buildAnalyticsApp(combo) })
    after(async () => { await t.close() })

    for (const row of BAD) {
      it(`answers ${row.status} to ${row.name}`, async () => {
        const res = await t.report(row.query, undefined, row.path)
        assert.equal(res.statusCode, row.status, res.body)
        assert.equal(res.json().message, row.message)
        assert.equal(res.json().code, row.code ?? 'validation_failed')
      })
    }

    it('answers the retention curve of an asset from its heartbeats', async () => {
      const asset = await t.asset()
      const events = [{ name: 'video_start', time: '2026-11-22T09:00:00Z', startup_ms: 400 },
        { name: 'playhead_update', time: '2026-11-22T09:00:10Z', position_ms: 3000, duration_ms: 4000 }]
      assert.equal((await t.collect({ account_code: t.admin.accountCode, session_id: 'r1', asset_id: asset, events })).statusCode, 204)
      await t.flush()
      const res = await t.report({ ...DAY, asset_id: asset }, undefined, '/v2/analytics/retention')
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual([res.json().views, res.json().retention[75].share, res.json().retention[76].share], [1, 1, 0])
    })

    it('answers the playback failures with their messages, by code and message, most frequent first', async () => {
      const asset = await t.asset()
      const error = (time: string, fatal: boolean, code: string, message: string): object => ({ name: 'error', time, fatal, code, message })
      const sessions = [
        ['f1', [error('2026-11-22T09:00:01Z', true, 'manifestLoadError', 'HTTP 404'), error('2026-11-22T09:00:02Z', false, 'fragLoadError', 'retrying')]],
        ['f2', [error('2026-11-22T09:05:00Z', true, 'manifestLoadError', 'HTTP 404')]],
        ['f3', [error('2026-11-22T10:00:00Z', true, 'mediaError', 'decode failed')]]
      ] as const
      for (const [session, events] of sessions) {
        assert.equal((await t.collect({ account_code: t.admin.accountCode, session_id: session, asset_id: asset, events })).statusCode, 204)
      }
      await t.flush()
      const res = await t.report({ ...DAY, asset_id: asset }, undefined, '/v2/analytics/failures')
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json().failures, [
        { code: 'manifestLoadError', message: 'HTTP 404', count: 2, views: 2, last_seen: '2026-11-22T09:05:00Z' },
        { code: 'mediaError', message: 'decode failed', count: 1, views: 1, last_seen: '2026-11-22T10:00:00Z' }
      ])
    })

    it('refuses a page token of another report', async () => {
      const asset = await t.asset()
      for (const n of [1, 2]) {
        const body = { account_code: t.admin.accountCode, session_id: `s${n}`, asset_id: asset, domain: `d${n}.example`, events: [{ name: 'display', time: '2026-11-22T09:00:00Z' }] }
        assert.equal((await t.collect(body)).statusCode, 204)
      }
      await t.flush()
      const first = await t.report({ ...DAY, dimensions: 'domain', limit: '1' })
      const token = new URLSearchParams(first.json().next_page.split('?')[1]).get('page_token') as string
      const res = await t.report({ ...DAY, dimensions: 'country', limit: '1', page_token: token })
      assert.deepEqual([res.statusCode, res.json().message], [400, 'Parameter page_token belongs to a different query.'])
    })

    it('refuses a list\'s page token on a report, and a report\'s on a list: each kind has its own key', async () => {
      for (const name of ['a', 'b']) assert.equal((await t.signed('POST', '/v2/labels', { body: { name } })).statusCode, 200)
      const labels = await t.signed('GET', '/v2/labels', { params: { limit: 1 } })
      const labelsToken = new URLSearchParams(labels.json().next_page.split('?')[1]).get('page_token') as string
      const onReport = await t.report({ ...DAY, page_token: labelsToken })
      assert.deepEqual([onReport.statusCode, onReport.json().code, onReport.json().message], [400, 'page_token_invalid', 'Parameter page_token is not a valid page token.'])

      const asset = await t.asset()
      for (const n of [1, 2]) {
        const body = { account_code: t.admin.accountCode, session_id: `k${n}`, asset_id: asset, domain: `k${n}.example`, events: [{ name: 'display', time: '2026-11-22T09:00:00Z' }] }
        assert.equal((await t.collect(body)).statusCode, 204)
      }
      await t.flush()
      const report = await t.report({ ...DAY, dimensions: 'domain', limit: '1' })
      const reportToken = new URLSearchParams(report.json().next_page.split('?')[1]).get('page_token') as string
      const onList = await t.signed('GET', '/v2/labels', { params: { limit: 1, page_token: reportToken } })
      assert.deepEqual([onList.statusCode, onList.json().code, onList.json().message], [400, 'page_token_invalid', 'Parameter page_token is not a valid page token.'])
    })

    it('answers unsigned report requests with 400 naming the missing parameters', async () => {
      const res = await t.app.inject({ method: 'GET', url: `${REPORTS}?start_date=2026-11-22` })
      assert.deepEqual([res.statusCode, res.json().message], [400, 'These parameters are missing: api_key, signature, expires.'])
    })

    it('answers a well-formed report (the row that succeeds)', async () => {
      const res = await t.report({ ...DAY, dimensions: 'country', metrics: 'displays', filters: "country!='ZZ'", time_segment: 'hour', sort: '+country', limit: '10' })
      assert.equal(res.statusCode, 200, res.body)
    })
  })
}
