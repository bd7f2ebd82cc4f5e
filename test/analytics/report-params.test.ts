import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { classicReportQuery, DIMENSIONS, METRICS, parseFilters, parseReportParams } from '../../src/analytics/index.ts'
import { openTestAnalytics, type TestAnalytics } from './support/harness.ts'

const R = { start_date: '2026-11-01', end_date: '2026-11-22' }
const SHAPE = '/v2/analytics/reports/{account|asset/ID}/performance/{total|videos|countries|domains|device_types}[/value]/{YYYY-MM-DD[...YYYY-MM-DD]}'
const dimensionList = DIMENSIONS.join(', ')

const BAD: Array<{ field?: string, query: Record<string, string>, code?: string, message: string }> = [
  { field: 'start_date', query: {}, message: 'start_date is required (YYYY-MM-DD).' },
  { field: 'start_date', query: { start_date: '2026-13-01' }, message: 'start_date must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ).' },
  { field: 'start_date', query: { start_date: '2026-02-30' }, message: 'start_date must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ).' },
  { field: 'start_date', query: { start_date: '2026-11-01T10:00:00+01:00' }, message: 'start_date must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ).' },
  { field: 'end_date', query: { start_date: '2026-11-01', end_date: 'tomorrow' }, message: 'end_date must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ).' },
  { field: 'end_date', query: { start_date: '2026-11-01', end_date: '2026-11-01' }, message: 'end_date must be after start_date (it is exclusive).' },
  { field: 'end_date', query: { start_date: '2025-11-01', end_date: '2026-11-03' }, message: 'The date range must not exceed 366 days.' },
  { field: 'dimensions', query: { ...R, dimensions: 'city' }, message: `dimensions: unknown dimension 'city'; use ${dimensionList}.` },
  { field: 'dimensions', query: { ...R, dimensions: 'asset,country,os,browser' }, message: 'dimensions: at most 3 dimensions.' },
  { field: 'dimensions', query: { ...R, dimensions: 'country,country' }, message: "dimensions: 'country' is listed twice." },
  { field: 'metrics', query: { ...R, metrics: 'displays,plays' }, message: `metrics: unknown metric 'plays'; use ${METRICS.join(', ')}.` },
  { field: 'time_segment', query: { ...R, time_segment: '15min' }, message: 'time_segment must be one of hour, day, week, month, total.' },
  { field: 'sort', query: { ...R, sort: 'country' }, message: "sort: 'country' is neither a metric nor one of the report's dimensions." },
  { field: 'sort', query: { ...R, sort: 'displays,+plays' }, message: "sort: 'plays' is neither a metric nor one of the report's dimensions." },
  { query: { ...R, limit: '0' }, code: 'limit_invalid', message: 'limit must be an integer from 1 to 1000.' },
  { query: { ...R, limit: '1001' }, code: 'limit_invalid', message: 'limit must be an integer from 1 to 1000.' },
  { query: { ...R, limit: 'ten' }, code: 'limit_invalid', message: 'limit must be an integer from 1 to 1000.' },
  { query: { ...R, page_token: 'garbage' }, code: 'page_token_invalid', message: 'Parameter page_token is not a valid page token.' },
  { field: 'filters', query: { ...R, filters: "country=='US" }, message: 'filters: unterminated value starting at position 10.' },
  { field: 'filters', query: { ...R, filters: "country='US'" }, message: "filters: unexpected character '=' at position 8." },
  { field: 'filters', query: { ...R, filters: "city=='Paris'" }, message: `filters: unknown dimension 'city' at position 1; use one of ${dimensionList}.` },
  { field: 'filters', query: { ...R, filters: "country=='US';" }, message: 'filters: expected a dimension name but found end of input at position 15.' },
  { field: 'filters', query: { ...R, filters: "(country=='US'" }, message: "filters: expected ')' but found end of input at position 15." },
  { field: 'filters', query: { ...R, filters: "country=='US')" }, message: "filters: unexpected ')' at position 14." },
  { field: 'filters', query: { ...R, filters: 'country==US' }, message: "filters: expected a quoted value but found 'US' at position 10." },
  { field: 'filters', query: { ...R, filters: "country 'US'" }, message: "filters: expected == or != but found 'US' at position 9." },
  { field: 'filters', query: { ...R, filters: "country=='US' && os=='ios'" }, message: "filters: unexpected character '&' at position 15." },
  { field: 'filters', query: { ...R, filters: "os=='ios' | | os=='mac'" }, message: "filters: expected a dimension name but found '|' at position 13." },
  { field: 'filters', query: { ...R, filters: Array.from({ length: 51 }, () => "os=='ios'").join('|') }, message: 'filters: at most 50 comparisons.' }
]

describe('GET /v2/analytics/reports: parameters', () => {
  let t: TestAnalytics
  before(async () => { t = await openTestAnalytics('duckdb') })
  after(async () => { await t?.close() })

  for (const row of BAD) {
    const shown = JSON.stringify(row.query)
    it(`refuses ${shown.length > 100 ? shown.slice(0, 100) + '…' : shown} with 400: ${row.message.slice(0, 100)}`, async () => {
      await assert.rejects(t.analytics.report('acc-a', row.query), {
        name: 'ApiError',
        status: 400,
        code: row.code ?? 'validation_failed',
        message: row.message,
        ...(row.field === undefined ? {} : { extras: { errors: { [row.field]: [row.message] } } })
      })
    })
  }

  it('answers a well-formed report (the one row that succeeds)', async () => {
    const answer = await t.analytics.report('acc-a', { ...R, dimensions: 'country', metrics: 'displays', sort: '+displays', limit: '5' })
    assert.deepEqual(answer, { results: [{ start_date: '2026-11-01T00:00:00Z', end_date: '2026-11-22T00:00:00Z', data: [] }], total_count: 0 })
  })
})

describe('report parameter parsing', () => {
  const now = Date.parse('2026-11-22T10:00:00Z')

  it('reads +name (or a + decoded to a space) as ascending, name and -name as descending', () => {
    const p = parseReportParams({ ...R, dimensions: 'country', sort: ' displays,+country,-time_watched,plays_requested' }, now)
    assert.deepEqual(p.sort, [
      { field: 'displays', descending: false }, { field: 'country', descending: false },
      { field: 'time_watched', descending: true }, { field: 'plays_requested', descending: true }
    ])
  })

  it('defaults to every metric, the total, 1,000 rows and the first metric descending', () => {
    const p = parseReportParams({ start_date: '2026-11-01' }, now)
    assert.deepEqual([p.metrics, p.segment, p.limit, p.sort, p.end], [[...METRICS], 'total', 1000, [{ field: 'displays', descending: true }], Date.parse('2026-11-23T00:00:00Z')])
  })

  it('parses ; , AND as and, | OR as or, with and binding tighter and parentheses grouping', () => {
    assert.deepEqual(parseFilters("country=='us' AND (os=='ios' or os==\"mac\"),browser!='saf\\'ari'|domain=='a.com'"), {
      kind: 'or',
      items: [
        {
          kind: 'and',
          items: [
            { kind: 'compare', dimension: 'country', op: '==', value: 'US' },
            { kind: 'or', items: [{ kind: 'compare', dimension: 'os', op: '==', value: 'ios' }, { kind: 'compare', dimension: 'os', op: '==', value: 'mac' }] },
            { kind: 'compare', dimension: 'browser', op: '!=', value: "saf'ari" }
          ]
        },
        { kind: 'compare', dimension: 'domain', op: '==', value: 'a.com' }
      ]
    })
    assert.equal(parseFilters('  '), undefined)
  })
})

describe('classic report paths', () => {
  it('maps the account total over a range (end exclusive) and a single day', () => {
    assert.deepEqual(classicReportQuery('/v2/analytics/reports/account/performance/total/2026-11-01...2026-11-22'), { start_date: '2026-11-01', end_date: '2026-11-22' })
    assert.deepEqual(classicReportQuery('account/performance/total/2026-11-30'), { start_date: '2026-11-30', end_date: '2026-12-01' })
  })

  it('maps videos, drill-downs, asset level and the query options', () => {
    assert.deepEqual(classicReportQuery('/v2/analytics/reports/asset/ab%27c/performance/countries/US/2026-11-01...2026-11-08', { breakdown_by: 'week', order_by: 'plays', limit: '10', page_token: 'tok', api_key: 'k' }), {
      start_date: '2026-11-01', end_date: '2026-11-08', dimensions: 'country', filters: "asset=='ab\\'c';country=='US'", time_segment: 'week', sort: 'plays_requested', limit: '10', page_token: 'tok'
    })
    assert.deepEqual(classicReportQuery('/v2/analytics/reports/account/performance/videos/2026-11-01'), { start_date: '2026-11-01', end_date: '2026-11-02', dimensions: 'asset' })
    assert.deepEqual(classicReportQuery('/v2/analytics/reports/account/performance/device_types/2026-11-01').dimensions, 'device_type')
  })

  const BAD_PATHS: Array<{ path: string, query?: Record<string, string>, message: string }> = [
    { path: '/v2/analytics/reports/account/sharing/total/2026-11-01', message: "Only the performance report is available, not 'sharing'." },
    { path: '/v2/analytics/reports/account/performance/cities/2026-11-01', message: `The report path must look like ${SHAPE}.` },
    { path: '/v2/analytics/reports/player/x/performance/total/2026-11-01', message: `The report path must look like ${SHAPE}.` },
    { path: '/v2/analytics/reports/account/performance/total', message: `The report path must look like ${SHAPE}.` },
    { path: '/v2/analytics/reports/account/performance/total/US/2026-11-01', message: `The report path must look like ${SHAPE}.` },
    { path: '/v2/analytics/reports/account/performance/total/2026-11-01..2026-11-02', message: "The date range must be YYYY-MM-DD or YYYY-MM-DD...YYYY-MM-DD (end exclusive), not '2026-11-01..2026-11-02'." },
    { path: '/v2/analytics/reports/account/performance/total/2026-11-31', message: "The date range must be YYYY-MM-DD or YYYY-MM-DD...YYYY-MM-DD (end exclusive), not '2026-11-31'." },
    { path: '/v2/analytics/reports/account/performance/total/2026-11-01', query: { breakdown_by: 'hour' }, message: 'breakdown_by must be one of day, week, month.' },
    { path: '/v2/analytics/reports/account/performance/total/2026-11-01', query: { order_by: 'ad_clicks' }, message: 'order_by must be one of plays, displays, video_starts, time_watched, replays.' }
  ]
  for (const row of BAD_PATHS) {
    it(`refuses ${row.path}${row.query === undefined ? '' : ' ' + JSON.stringify(row.query)}`, () => {
      assert.throws(() => classicReportQuery(row.path, row.query), { name: 'ApiError', status: 400, code: 'validation_failed', message: row.message })
    })
  }
})
