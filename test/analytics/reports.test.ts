import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ReportAnswer, ReportRow } from '../../src/analytics/index.ts'
import { loadFixture } from './support/fixture.ts'
import { openTestAnalytics, STORES, type TestAnalytics } from './support/harness.ts'

// Expected numbers are counted by hand from the table in support/fixture.ts; the same table runs on
// DuckDB and on PostgreSQL, so both engines give the same numbers (uniques are exact on both).
const RANGE = { start_date: '2026-11-16', end_date: '2026-12-02' }
const T = (day: string, hour = '00'): string => `2026-${day}T${hour}:00:00Z`
const row = (group: Record<string, string>, metrics: ReportRow['metrics']): ReportRow => ({ group, metrics })
const total = (data: ReportRow[]): ReportAnswer => ({ results: [{ start_date: T('11-16'), end_date: T('12-02'), data }], total_count: data.length })

/** The fixture's players send no viewer-experience events: the quality metrics are zero, the score perfect. */
const NO_QUALITY = {
  startup_time_ms: null, startup_time_ms_p95: null, rebuffer_ratio: 0, rebuffer_frequency: 0, playback_failure_rate: 0,
  exits_before_start: 0, avg_rendition_height: 0, avg_bitrate: 0, viewer_experience_score: 100
}

const CASES: Array<{ name: string, query: Record<string, string>, expected: ReportAnswer }> = [
  {
    name: 'the total with every metric by default',
    query: { ...RANGE },
    expected: total([row({}, {
      displays: 6, plays_requested: 6, video_starts: 4, replays: 1,
      playthrough_25: 3, playthrough_50: 2, playthrough_75: 1, playthrough_100: 1,
      time_watched: 130000, avg_time_watched_per_video: 32500, play_conversion_rate: 1, video_conversion_rate: 0.6667,
      uniq_plays_requested: 4, ...NO_QUALITY, exits_before_start: 2
    })])
  },
  {
    name: 'one row per asset, largest first metric first',
    query: { ...RANGE, dimensions: 'asset', metrics: 'displays,plays_requested,video_starts,time_watched,uniq_plays_requested' },
    expected: total([
      row({ asset: 'asset-2' }, { displays: 3, plays_requested: 3, video_starts: 1, time_watched: 20000, uniq_plays_requested: 2 }),
      row({ asset: 'asset-1' }, { displays: 2, plays_requested: 2, video_starts: 2, time_watched: 105000, uniq_plays_requested: 2 }),
      row({ asset: 'asset-3' }, { displays: 1, plays_requested: 1, video_starts: 1, time_watched: 5000, uniq_plays_requested: 1 })
    ])
  },
  {
    name: 'two dimensions sorted ascending by one of them (byte order: upper case first)',
    query: { ...RANGE, dimensions: 'country,device_type', metrics: 'plays_requested,time_watched', sort: '+country' },
    expected: total([
      row({ country: 'DE', device_type: 'tablet' }, { plays_requested: 1, time_watched: 5000 }),
      row({ country: 'GB', device_type: 'mobile' }, { plays_requested: 1, time_watched: 75000 }),
      row({ country: 'US', device_type: 'desktop' }, { plays_requested: 2, time_watched: 50000 }),
      row({ country: 'unknown', device_type: 'mobile' }, { plays_requested: 2, time_watched: 0 })
    ])
  },
  {
    name: 'an or-filter with os and browser',
    query: { ...RANGE, dimensions: 'os,browser', metrics: 'video_starts,replays', filters: "country=='US'|country=='gb'" },
    expected: total([
      row({ os: 'windows', browser: 'chrome' }, { video_starts: 2, replays: 0 }),
      row({ os: 'ios', browser: 'safari' }, { video_starts: 1, replays: 1 })
    ])
  },
  {
    name: 'parentheses, ; and != by domain',
    query: { ...RANGE, dimensions: 'domain', metrics: 'displays,plays_requested,play_conversion_rate', filters: "(domain=='example.com' | domain==\"other.org\"); device_type!='desktop'" },
    expected: total([
      row({ domain: 'other.org' }, { displays: 2, plays_requested: 2, play_conversion_rate: 1 }),
      row({ domain: 'example.com' }, { displays: 1, plays_requested: 1, play_conversion_rate: 1 })
    ])
  },
  {
    name: 'sorting descending by a dimension',
    query: { ...RANGE, dimensions: 'device_type', metrics: 'displays,video_conversion_rate', sort: '-device_type' },
    expected: total([
      row({ device_type: 'tablet' }, { displays: 1, video_conversion_rate: 1 }),
      row({ device_type: 'mobile' }, { displays: 3, video_conversion_rate: 0.3333 }),
      row({ device_type: 'desktop' }, { displays: 2, video_conversion_rate: 1 })
    ])
  },
  {
    name: 'distinct viewers alone, by player',
    query: { ...RANGE, dimensions: 'player_id', metrics: 'uniq_plays_requested' },
    expected: total([row({ player_id: 'player-x' }, { uniq_plays_requested: 3 }), row({ player_id: 'player-y' }, { uniq_plays_requested: 2 })])
  },
  {
    name: 'sorting by a metric that is not shown',
    query: { ...RANGE, dimensions: 'asset', metrics: 'displays', sort: 'time_watched' },
    expected: total([row({ asset: 'asset-1' }, { displays: 2 }), row({ asset: 'asset-2' }, { displays: 3 }), row({ asset: 'asset-3' }, { displays: 1 })])
  },
  {
    name: 'daily segments, a start inside a day widened to its midnight',
    query: { start_date: '2026-11-15T12:00:00Z', end_date: '2026-11-18', metrics: 'displays', time_segment: 'day' },
    expected: {
      results: [
        { start_date: T('11-15'), end_date: T('11-16'), data: [row({}, { displays: 1 })] },
        { start_date: T('11-16'), end_date: T('11-17'), data: [row({}, { displays: 1 })] },
        { start_date: T('11-17'), end_date: T('11-18'), data: [row({}, { displays: 2 })] }
      ],
      total_count: 3
    }
  },
  {
    name: 'weekly segments run Monday to Monday and widen the range',
    query: { start_date: '2026-11-18', end_date: '2026-11-25', metrics: 'plays_requested,uniq_plays_requested', time_segment: 'week' },
    expected: {
      results: [
        { start_date: T('11-16'), end_date: T('11-23'), data: [row({}, { plays_requested: 3, uniq_plays_requested: 2 })] },
        { start_date: T('11-23'), end_date: T('11-30'), data: [row({}, { plays_requested: 2, uniq_plays_requested: 1 })] }
      ],
      total_count: 2
    }
  },
  {
    name: 'monthly segments by player, ties broken by the dimension',
    query: { ...RANGE, dimensions: 'player_id', metrics: 'displays,time_watched', time_segment: 'month' },
    expected: {
      results: [
        { start_date: T('11-01'), end_date: T('12-01'), data: [row({ player_id: 'player-x' }, { displays: 3, time_watched: 105000 }), row({ player_id: 'player-y' }, { displays: 3, time_watched: 20000 })] },
        { start_date: T('12-01'), end_date: '2027-01-01T00:00:00Z', data: [row({ player_id: 'player-x' }, { displays: 1, time_watched: 5000 })] }
      ],
      total_count: 3
    }
  },
  {
    name: 'hourly segments',
    query: { start_date: '2026-11-17', end_date: '2026-11-18', metrics: 'displays', time_segment: 'hour' },
    expected: {
      results: [
        { start_date: T('11-17', '09'), end_date: T('11-17', '10'), data: [row({}, { displays: 1 })] },
        { start_date: T('11-17', '14'), end_date: T('11-17', '15'), data: [row({}, { displays: 1 })] }
      ],
      total_count: 2
    }
  },
  {
    name: 'labels: an asset counts under each of its labels, unlabelled ones under unknown; each row names its label',
    query: { ...RANGE, dimensions: 'label', metrics: 'displays,uniq_plays_requested' },
    expected: total([
      row({ label: 'lbl-parent', label_name: 'Sports' }, { displays: 5, uniq_plays_requested: 3 }),
      row({ label: 'lbl-child', label_name: 'Hockey' }, { displays: 2, uniq_plays_requested: 2 }),
      row({ label: 'unknown', label_name: 'unknown' }, { displays: 1, uniq_plays_requested: 1 })
    ])
  },
  {
    name: 'a label filter without the label dimension selects the assets that have it',
    query: { ...RANGE, metrics: 'displays', filters: "label=='lbl-child'" },
    expected: total([row({}, { displays: 2 })])
  },
  {
    name: 'a label filter with the label dimension tests the group label',
    query: { ...RANGE, dimensions: 'label', metrics: 'displays', filters: "label!='lbl-parent'" },
    expected: total([row({ label: 'lbl-child', label_name: 'Hockey' }, { displays: 2 }), row({ label: 'unknown', label_name: 'unknown' }, { displays: 1 })])
  },
  {
    name: 'end_date defaults to tomorrow (the event at 12-02 00:00 is then in)',
    query: { start_date: '2026-11-16', metrics: 'plays_requested' },
    expected: { results: [{ start_date: T('11-16'), end_date: T('12-11'), data: [row({}, { plays_requested: 7 })] }], total_count: 1 }
  },
  {
    name: 'no events: the total still has its one entry',
    query: { start_date: '2025-01-01', end_date: '2025-01-02', metrics: 'displays' },
    expected: { results: [{ start_date: '2025-01-01T00:00:00Z', end_date: '2025-01-02T00:00:00Z', data: [] }], total_count: 0 }
  }
]

/** Every metric, zero unless given; the ratios computed as the report defines them. */
function allMetrics (counts: Partial<Record<string, number>>): ReportRow['metrics'] {
  const c = (k: string): number => counts[k] ?? 0
  return {
    displays: c('displays'), plays_requested: c('plays_requested'), video_starts: c('video_starts'), replays: c('replays'),
    playthrough_25: c('playthrough_25'), playthrough_50: c('playthrough_50'), playthrough_75: c('playthrough_75'), playthrough_100: c('playthrough_100'),
    time_watched: c('time_watched'),
    avg_time_watched_per_video: c('video_starts') === 0 ? 0 : Math.round(c('time_watched') / c('video_starts')),
    play_conversion_rate: c('displays') === 0 ? 0 : Math.round(c('plays_requested') / c('displays') * 1e4) / 1e4,
    video_conversion_rate: c('plays_requested') === 0 ? 0 : Math.round(c('video_starts') / c('plays_requested') * 1e4) / 1e4,
    uniq_plays_requested: c('uniq_plays_requested'),
    ...NO_QUALITY,
    exits_before_start: Math.max(c('plays_requested') - c('video_starts'), 0)
  }
}
// asset-2 by country: S4 (unknown) 2 displays, 2 plays; S3 (US) 1 of each, a start and 20 s watched.
const perAsset2Unknown = allMetrics({ displays: 2, plays_requested: 2, uniq_plays_requested: 1 })
const perAsset2Us = allMetrics({ displays: 1, plays_requested: 1, video_starts: 1, time_watched: 20000, uniq_plays_requested: 1 })

for (const store of STORES) {
  describe(`reports on ${store.name}`, { skip: store.skip }, () => {
    let t: TestAnalytics
    before(async () => {
      t = await openTestAnalytics(store.name)
      await loadFixture(t)
    })
    after(async () => { await t?.close() })

    for (const c of CASES) {
      it(`answers ${c.name}`, async () => {
        assert.deepEqual(await t.analytics.report('acc-a', c.query), c.expected)
      })
    }

    it('shows another account nothing of account A and vice versa', async () => {
      assert.deepEqual(await t.analytics.report('acc-b', { ...RANGE, metrics: 'displays,plays_requested' }),
        total([row({}, { displays: 1, plays_requested: 1 })]))
    })

    it('pages with limit and next_page, then refuses the token for another report or forged', async () => {
      const query = { ...RANGE, dimensions: 'asset', metrics: 'displays', api_key: 'k', expires: '1', signature: 's', limit: '2' }
      const first = await t.analytics.report('acc-a', query)
      assert.deepEqual(first.results, [{ start_date: T('11-16'), end_date: T('12-02'), data: [row({ asset: 'asset-2' }, { displays: 3 }), row({ asset: 'asset-1' }, { displays: 2 })] }])
      assert.equal(first.total_count, 3)
      const next = first.next_page ?? assert.fail('next_page is missing')
      assert.match(next, /^\/v2\/analytics\/reports\?start_date=2026-11-16&end_date=2026-12-02&dimensions=asset&metrics=displays&limit=2&page_token=[\w.-]+$/)
      const token = new URLSearchParams(next.split('?')[1]).get('page_token') ?? ''
      const second = await t.analytics.report('acc-a', { ...RANGE, dimensions: 'asset', metrics: 'displays', limit: '2', page_token: token })
      assert.deepEqual(second, { results: [{ start_date: T('11-16'), end_date: T('12-02'), data: [row({ asset: 'asset-3' }, { displays: 1 })] }], total_count: 3 })
      await assert.rejects(t.analytics.report('acc-a', { ...RANGE, dimensions: 'country', metrics: 'displays', page_token: token }),
        { code: 'page_token_invalid', message: 'Parameter page_token belongs to a different query.' })
      await assert.rejects(t.analytics.report('acc-a', { ...RANGE, dimensions: 'asset', metrics: 'displays', paging_token: token.slice(0, -2) + 'AA' }),
        { code: 'page_token_invalid', message: 'Parameter page_token is not a valid page token.' })
    })

    it('serves the classic path form with the same numbers', async () => {
      const classic = await t.analytics.classicReport('acc-a', '/v2/analytics/reports/account/performance/total/2026-11-16...2026-12-02', {})
      assert.deepEqual(classic, CASES[0].expected)
      assert.deepEqual(await t.analytics.classicReport('acc-a', '/v2/analytics/reports/asset/asset-2/performance/countries/2026-11-16...2026-12-02', { }), total([
        row({ country: 'unknown' }, perAsset2Unknown),
        row({ country: 'US' }, perAsset2Us)
      ]))
      const day = await t.analytics.classicReport('acc-a', '/v2/analytics/reports/account/performance/videos/2026-11-17', { order_by: 'plays', limit: '1' })
      assert.deepEqual(day.results, [{ start_date: T('11-17'), end_date: T('11-18'), data: [row({ asset: 'asset-1' }, allMetrics({ displays: 1, plays_requested: 1, video_starts: 1, replays: 1, playthrough_25: 1, playthrough_50: 1, playthrough_75: 1, playthrough_100: 1, time_watched: 75000, uniq_plays_requested: 1 }))] }])
      assert.equal(day.total_count, 2)
      assert.match(day.next_page ?? '', /^\/v2\/analytics\/reports\/account\/performance\/videos\/2026-11-17\?order_by=plays&limit=1&page_token=/)
    })
  })
}
