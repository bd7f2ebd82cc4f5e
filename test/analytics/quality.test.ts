import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ReportRow } from '../../src/analytics/index.ts'
import { openTestAnalytics, STORES, type TestAnalytics } from './support/harness.ts'

// Viewer-experience metrics over a hand-written set of views; every expected number is worked out in
// the comments. The manual clock reads 2026-11-22T10:00:00Z; the views are that morning.
const at = (time: string): string => `2026-11-22T${time}Z`
const desktop = { id: 'dev-1', user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36' }
const phone = { id: 'dev-2', user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1' }
const view = (session: string, asset: string, device: object, events: Array<Record<string, unknown>>): Record<string, unknown> =>
  ({ account_code: 'code-a', session_id: session, asset_id: asset, device, country: 'US', events })

/**
 * | view | asset | plays | start (startup_ms) | renditions (height, bit rate) | stalls (ms) | reached | watched | errors |
 * |---|---|---|---|---|---|---|---|---|
 * | q1 | asset-1 | 1 | 500 | 720p 3 Mb/s | 2000 | 50 % | 60 s | |
 * | q2 | asset-1 (phone) | 1 | 1500 | 1080p 5 Mb/s, 480p 1 Mb/s | 1000, 3000 | 100 % | 60 s | |
 * | q3 | asset-1 | 1 | — | | | | | fatal |
 * | q4 | asset-2 | 1 | 12000 | | | 10 % | 30 s | not fatal |
 * | q5 | asset-2 | 1 | — (left) | | | | | |
 */
const VIEWS = [
  view('q1', 'asset-1', desktop, [
    { name: 'player_load', time: at('08:00:00') }, { name: 'play_requested', time: at('08:00:01') },
    { name: 'video_start', time: at('08:00:02'), startup_ms: 500 },
    { name: 'rendition_change', time: at('08:00:02'), height: 720, bitrate: 3_000_000 },
    { name: 'rebuffer_start', time: at('08:00:10') }, { name: 'rebuffer_end', time: at('08:00:12'), duration_ms: 2000 },
    { name: 'playhead_update', time: at('08:00:40'), position_ms: 30_000, duration_ms: 60_000 },
    { name: 'time_watched', time: at('08:01:00'), value: 60_000 }
  ]),
  view('q2', 'asset-1', phone, [
    { name: 'play_requested', time: at('08:10:00') }, { name: 'video_start', time: at('08:10:02'), startup_ms: 1500 },
    { name: 'rendition_change', time: at('08:10:02'), height: 1080, bitrate: 5_000_000 },
    { name: 'rendition_change', time: at('08:10:20'), height: 480, bitrate: 1_000_000 },
    { name: 'rebuffer_start', time: at('08:10:21') }, { name: 'rebuffer_end', time: at('08:10:22'), duration_ms: 1000 },
    { name: 'rebuffer_start', time: at('08:10:30') }, { name: 'rebuffer_end', time: at('08:10:33'), duration_ms: 3000 },
    { name: 'playhead_update', time: at('08:11:00'), position_ms: 60_000, duration_ms: 60_000 },
    { name: 'time_watched', time: at('08:11:00'), value: 60_000 }
  ]),
  view('q3', 'asset-1', desktop, [
    { name: 'play_requested', time: at('08:20:00') },
    { name: 'error', time: at('08:20:01'), fatal: true, code: 'manifestLoadError', message: 'HTTP 404 for the playlist' }
  ]),
  view('q4', 'asset-2', desktop, [
    { name: 'play_requested', time: at('08:30:00') }, { name: 'video_start', time: at('08:30:12'), startup_ms: 12_000 },
    { name: 'error', time: at('08:30:20'), fatal: false, code: 3 },
    { name: 'playhead_update', time: at('08:30:30'), position_ms: 6000, duration_ms: 60_000 },
    { name: 'time_watched', time: at('08:31:00'), value: 30_000 }
  ]),
  view('q5', 'asset-2', desktop, [{ name: 'play_requested', time: at('08:40:00') }])
]

const RANGE = { start_date: '2026-11-22', end_date: '2026-11-23' }
const QUALITY = 'plays_requested,video_starts,startup_time_ms,startup_time_ms_p95,rebuffer_ratio,rebuffer_frequency,playback_failure_rate,' +
  'exits_before_start,avg_rendition_height,avg_bitrate,viewer_experience_score'
const score = (startupMs: number, rebufferRatio: number, failureRate: number): number =>
  Math.round(1000 * 8000 / (8000 + startupMs) / (1 + 20 * rebufferRatio) * (1 - failureRate)) / 10

for (const store of STORES) {
  describe(`viewer-experience reports on ${store.name}`, { skip: store.skip }, () => {
    let t: TestAnalytics
    before(async () => {
      t = await openTestAnalytics(store.name)
      for (const body of VIEWS) await t.analytics.collect(body)
      await t.analytics.flush()
    })
    after(async () => { await t?.close() })

    it('computes every quality metric of the total', async () => {
      const answer = await t.analytics.report('acc-a', { ...RANGE, metrics: QUALITY })
      const expected: ReportRow['metrics'] = {
        plays_requested: 5,
        video_starts: 3,
        // Startups 500, 1500, 12000 fall in the buckets [500, 510), [1500, 1600), [12000, 13000): the
        // median is the 2nd of 3 (midpoint 1550), the 95th percentile the 3rd (midpoint 12500).
        startup_time_ms: 1550,
        startup_time_ms_p95: 12500,
        // 6000 ms stalled over 150000 ms watched; 3 stalls over 2.5 minutes.
        rebuffer_ratio: 0.04,
        rebuffer_frequency: 1.2,
        // One fatal error over 5 plays requested; 5 requested − 3 started − 1 failed left before the start.
        playback_failure_rate: 0.2,
        exits_before_start: 1,
        avg_rendition_height: 760,
        avg_bitrate: 3_000_000,
        viewer_experience_score: score(1550, 0.04, 0.2)
      }
      assert.equal(expected.viewer_experience_score, 37.2)
      assert.deepEqual(answer.results[0].data, [{ group: {}, metrics: expected }])
    })

    it('computes them per asset and sorts by the median startup time', async () => {
      const answer = await t.analytics.report('acc-a', { ...RANGE, dimensions: 'asset', metrics: QUALITY, sort: 'startup_time_ms' })
      assert.deepEqual(answer.results[0].data, [
        {
          group: { asset: 'asset-2' },
          metrics: {
            plays_requested: 2, video_starts: 1, startup_time_ms: 12500, startup_time_ms_p95: 12500, rebuffer_ratio: 0, rebuffer_frequency: 0,
            playback_failure_rate: 0, exits_before_start: 1, avg_rendition_height: 0, avg_bitrate: 0, viewer_experience_score: score(12500, 0, 0)
          }
        },
        {
          group: { asset: 'asset-1' },
          metrics: {
            // Of 2 startups the median is the 1st (505), the 95th percentile the 2nd (1550).
            plays_requested: 3, video_starts: 2, startup_time_ms: 505, startup_time_ms_p95: 1550, rebuffer_ratio: 0.05, rebuffer_frequency: 1.5,
            playback_failure_rate: 0.3333, exits_before_start: 0, avg_rendition_height: 760, avg_bitrate: 3_000_000, viewer_experience_score: score(505, 0.05, 1 / 3)
          }
        }
      ])
    })

    it('splits them by device type', async () => {
      const answer = await t.analytics.report('acc-a', { ...RANGE, dimensions: 'device_type', metrics: 'startup_time_ms,rebuffer_ratio,avg_rendition_height', sort: '+device_type' })
      assert.deepEqual(answer.results[0].data, [
        // Desktop: startups 500 and 12000, 2000 ms stalled over 90000 ms watched, one 720p rendition.
        { group: { device_type: 'desktop' }, metrics: { startup_time_ms: 505, rebuffer_ratio: 0.0222, avg_rendition_height: 720 } },
        { group: { device_type: 'mobile' }, metrics: { startup_time_ms: 1550, rebuffer_ratio: 0.0667, avg_rendition_height: 780 } }
      ])
    })

    it('gives no startup time, not 0, for an hour without a start, and sorts it last either way', async () => {
      // 08:20–08:21 holds q3's failed play only.
      const raw = await t.analytics.report('acc-a', { start_date: '2026-11-22T08:20:00Z', end_date: '2026-11-22T08:21:00Z', metrics: 'plays_requested,startup_time_ms,startup_time_ms_p95,viewer_experience_score' })
      assert.deepEqual(raw.results[0].data, [{ group: {}, metrics: { plays_requested: 1, startup_time_ms: null, startup_time_ms_p95: null, viewer_experience_score: 0 } }])
      const byAsset = await t.analytics.report('acc-a', { start_date: '2026-11-22T08:40:00Z', end_date: '2026-11-22T09:00:00Z', dimensions: 'asset', metrics: 'startup_time_ms' })
      assert.deepEqual(byAsset.results[0].data, [{ group: { asset: 'asset-2' }, metrics: { startup_time_ms: null } }])
      for (const sort of ['startup_time_ms', '+startup_time_ms']) {
        // 08:20–08:45: asset-1 has q3's failure only, asset-2 q4's 12 s start.
        const sorted = await t.analytics.report('acc-a', { start_date: '2026-11-22T08:20:00Z', end_date: '2026-11-22T08:45:00Z', dimensions: 'asset', metrics: 'startup_time_ms', sort })
        assert.deepEqual(sorted.results[0].data, [{ group: { asset: 'asset-2' }, metrics: { startup_time_ms: 12500 } }, { group: { asset: 'asset-1' }, metrics: { startup_time_ms: null } }], sort)
      }
    })

    it('draws the retention curve of an asset from its heartbeats', async () => {
      // asset-1: q1 reached 50 %, q2 100 %; q3 never started and is not a view.
      const one = await t.analytics.retention('acc-a', { ...RANGE, asset_id: 'asset-1' })
      assert.equal(one.views, 2)
      assert.equal(one.retention.length, 101)
      assert.deepEqual(one.retention.filter((p) => [0, 50, 51, 100].includes(p.percent)),
        [{ percent: 0, share: 1 }, { percent: 50, share: 1 }, { percent: 51, share: 0.5 }, { percent: 100, share: 0.5 }])
      // asset-2: q4 reached 10 %; q5 left before the start.
      const two = await t.analytics.retention('acc-a', { ...RANGE, asset_id: 'asset-2' })
      assert.deepEqual([two.views, two.retention[10].share, two.retention[11].share], [1, 1, 0])
      const none = await t.analytics.retention('acc-a', { ...RANGE, asset_id: 'asset-3' })
      assert.deepEqual([none.views, none.retention[0].share], [0, 0])
    })

    it('refuses a retention query without an asset', async () => {
      await assert.rejects(t.analytics.retention('acc-a', { ...RANGE }), { code: 'validation_failed', message: 'asset_id is required (at most 128 characters).' })
    })
  })
}
