import type { CollectContext } from '../../../src/analytics/index.ts'
import { chunks, type TestAnalytics } from './harness.ts'

/**
 * The report fixture. Every expected number in reports.test.ts is counted by hand from this file.
 *
 * Account A (code-a), range 2026-11-16 … 2026-12-02 (exclusive); 2026-11-16 and 11-23 are Mondays.
 *
 * | session | asset | player | viewer | device / os / browser | country | domain | in range |
 * |---|---|---|---|---|---|---|---|
 * | S1 11-16 10:00 | asset-1 | player-x | dev-1 | desktop windows chrome | US (batch) | example.com | display, play_requested, video_start, pt25, pt50, tw 30000 (+ player_load, playhead_update) |
 * | S2 11-17 09:30 | asset-1 | player-x | dev-2 | mobile ios safari | GB (events, 'gb') | www.example.com (page_url) | display, play_requested, video_start, pt25/50/75/100, tw 60000 + 15000, replay (+ pause, seek) |
 * | S3 11-17 14:00 | asset-2 | player-y | dev-1 | desktop windows chrome | US | other.org | display, play_requested, video_start, tw 20000 |
 * | S4 11-23 08:00 | asset-2 | player-y | s:sess-4 | mobile android chrome (User-Agent header) | unknown | other.org (Referer) | 2 × display, 2 × play_requested |
 * | S5 12-01 00:30 | asset-3 | player-x | dev-3 | tablet ios safari | DE | example.com | display, play_requested, video_start, pt25, tw 5000 — **imported** as NDJSON |
 * | S6a 11-15 23:59:59 | asset-1 | player-x | dev-1 | desktop | US | example.com | display — before the range |
 * | S6b 12-02 00:00:00 | asset-1 | player-x | dev-1 | desktop | US | example.com | play_requested — at the exclusive end |
 *
 * Account B (code-b): S7 11-17 12:00, asset-1: display, play_requested — never in account A's reports.
 * Labels (labelsOf): asset-1 → lbl-parent, lbl-child; asset-2 → lbl-parent; asset-3 → none.
 */
export const UA = {
  windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  iphoneSafari: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  ipadSafari: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  androidChrome: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'
}

interface FixtureBatch { body: Record<string, unknown>, context?: CollectContext }

const at = (day: string, time: string): string => `2026-${day}T${time}Z`
const desktop = { id: 'dev-1', user_agent: UA.windowsChrome }

export const BATCHES: FixtureBatch[] = [
  {
    body: {
      account_code: 'code-a', session_id: 'sess-1', player_id: 'player-x', asset_id: 'asset-1', device: desktop, domain: 'example.com', country: 'US',
      events: [
        { name: 'player_load', time: at('11-16', '09:59:59') }, { name: 'display', time: at('11-16', '10:00:00') },
        { name: 'play_requested', time: at('11-16', '10:00:05') }, { name: 'video_start', time: at('11-16', '10:00:07') },
        { name: 'playhead_update', time: at('11-16', '10:00:30') }, { name: 'playthrough', percent: 25, time: at('11-16', '10:01:00') },
        { name: 'playthrough', percent: 50, time: at('11-16', '10:02:00') }, { name: 'time_watched', value: 30000, time: at('11-16', '10:02:00') }
      ]
    }
  },
  {
    body: {
      account_code: 'code-a', session_id: 'sess-2', player_id: 'player-x', asset_id: 'asset-1', device: { id: 'dev-2', user_agent: UA.iphoneSafari },
      page_url: 'https://www.example.com/watch?v=1',
      events: [
        ['display', '09:30:00'], ['play_requested', '09:30:02'], ['video_start', '09:30:04'], ['playthrough', '09:31:00', 25],
        ['playthrough', '09:32:00', 50], ['time_watched', '09:32:00', 60000], ['pause', '09:33:00'], ['playthrough', '09:33:00', 75],
        ['seek', '09:33:30'], ['playthrough', '09:34:00', 100], ['time_watched', '09:34:00', 15000], ['replay', '09:34:10']
      ].map(([name, time, n]) => ({
        name, time: at('11-17', time as string), country: 'gb', ...(name === 'playthrough' ? { percent: n } : name === 'time_watched' ? { value: n } : {})
      }))
    }
  },
  {
    body: {
      account_code: 'code-a', session_id: 'sess-3', player_id: 'player-y', asset_id: 'asset-2', device: desktop, domain: 'other.org', country: 'US',
      events: [
        { name: 'display', time: at('11-17', '14:00:00') }, { name: 'play_requested', time: at('11-17', '14:00:03') },
        { name: 'video_start', time: at('11-17', '14:00:05') }, { name: 'time_watched', value: 20000, time: at('11-17', '14:01:00') }
      ]
    }
  },
  {
    body: {
      account_code: 'code-a', session_id: 'sess-4', player_id: 'player-y', asset_id: 'asset-2',
      events: [
        { name: 'display', time: at('11-23', '08:00:00') }, { name: 'play_requested', time: at('11-23', '08:00:10') },
        // Epoch milliseconds are accepted as well as ISO times.
        { name: 'display', time: Date.parse(at('11-23', '08:05:00')) }, { name: 'play_requested', time: at('11-23', '08:05:10') }
      ]
    },
    context: { userAgent: UA.androidChrome, referer: 'https://other.org/page', ip: '10.0.0.1' }
  },
  { body: { account_code: 'code-a', session_id: 'sess-6a', player_id: 'player-x', asset_id: 'asset-1', device: desktop, domain: 'example.com', country: 'US', events: [{ name: 'display', time: at('11-15', '23:59:59') }] } },
  { body: { account_code: 'code-a', session_id: 'sess-6b', player_id: 'player-x', asset_id: 'asset-1', device: desktop, domain: 'example.com', country: 'US', events: [{ name: 'play_requested', time: at('12-02', '00:00:00') }] } },
  {
    body: {
      account_code: 'code-b', session_id: 'sess-7', asset_id: 'asset-1', device: desktop, country: 'US',
      events: [{ name: 'display', time: at('11-17', '12:00:00') }, { name: 'play_requested', time: at('11-17', '12:00:01') }]
    }
  }
]

const S5 = { session_id: 'sess-5', player_id: 'player-x', asset_id: 'asset-3', device: { id: 'dev-3', user_agent: UA.ipadSafari }, domain: 'example.com', country: 'DE' }
export const S5_NDJSON = [
  { ...S5, name: 'display', time: at('12-01', '00:30:00') },
  { ...S5, name: 'play_requested', time: at('12-01', '00:30:05') },
  { ...S5, name: 'video_start', time: at('12-01', '00:30:08') },
  { ...S5, name: 'playthrough', percent: 25, time: at('12-01', '00:31:00') },
  { ...S5, name: 'time_watched', value: 5000, time: at('12-01', '00:31:00') }
].map((line) => JSON.stringify(line)).join('\r\n') + '\n\n'

/**
 * Loads the fixture: each batch through `collect` with the clock a minute after its last event (so it
 * is inside the collection window), S5 through the NDJSON import, then a flush into the store.
 */
export async function loadFixture (t: TestAnalytics): Promise<void> {
  for (const batch of BATCHES) {
    const times = (batch.body.events as Array<{ time: string | number }>).map((e) => typeof e.time === 'number' ? e.time : Date.parse(e.time))
    t.clock.set(Math.max(...times) + 60_000)
    await t.analytics.collect(batch.body, batch.context)
  }
  t.clock.set(Date.parse('2026-12-10T00:00:00Z'))
  await t.analytics.importEvents('acc-a', chunks(S5_NDJSON))
  await t.analytics.flush()
}
