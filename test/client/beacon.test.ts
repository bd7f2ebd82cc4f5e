import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { attachBeacon, type BeaconVideo } from '../../packages/client/src/beacon.ts'
import { openTestAnalytics } from '../analytics/support/harness.ts'

/** A stand-in for a <video>: an EventTarget with the members the beacon reads, driven by the test. */
class Video extends EventTarget implements BeaconVideo {
  currentTime = 0
  duration = 60
  seeking = false
  paused = true
  error: { code: number, message: string } | null = null
  fire (type: string): void { this.dispatchEvent(new Event(type)) }
}

describe('the player beacon', () => {
  it('turns a play with one stall into events the collection endpoint accepts, with the startup time the page measured', async () => {
    let clock = Date.parse('2026-11-22T09:00:00Z')
    const sent: string[] = []
    const video = new Video()
    const beacon = attachBeacon(video, { endpoint: '/v2/analytics/events', accountCode: 'code-a', assetId: 'asset-1', sessionId: 'b-1', now: () => clock, send: (_, body) => sent.push(body) })
    video.paused = false
    video.fire('play')
    clock += 750
    video.fire('playing')
    clock += 5000
    video.currentTime = 20
    video.fire('timeupdate')
    video.fire('waiting')
    clock += 1200
    video.fire('playing')
    clock += 3000
    beacon.detach()

    assert.equal(beacon.startupMs, 750)
    assert.equal(sent.length, 1)
    const body = JSON.parse(sent[0]) as { events: Array<Record<string, unknown>> }
    assert.deepEqual(body.events.map((e) => e.name), ['player_load', 'play_requested', 'video_start', 'playthrough', 'rebuffer_start', 'rebuffer_end', 'time_watched'])
    assert.equal(body.events[2].startup_ms, 750)
    assert.equal(body.events[5].duration_ms, 1200)
    // Watched: 5 s before the stall and 3 s after it, not the stall itself.
    assert.equal(body.events[6].value, 8000)

    const t = await openTestAnalytics('duckdb')
    try {
      await t.analytics.collect(body)
      await t.analytics.flush()
      const report = await t.analytics.report('acc-a', { start_date: '2026-11-22', end_date: '2026-11-23', metrics: 'startup_time_ms,rebuffer_ratio' })
      assert.deepEqual(report.results[0].data[0].metrics, { startup_time_ms: 755, rebuffer_ratio: 0.15 })
    } finally {
      await t.close()
    }
  })
})
