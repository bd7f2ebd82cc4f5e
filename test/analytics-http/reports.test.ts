import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Caller } from '../support/app.ts'
import { analyticsCombos, batch, buildAnalyticsApp, DAY, type AnalyticsTestApp } from './support/harness.ts'

const at = (minute: number): string => `2026-11-22T09:${String(minute).padStart(2, '0')}:00Z`
const CLASSIC = '/v2/analytics/reports/account/performance/total/2026-11-22...2026-11-23'
const PLAY_METRICS = 'displays,plays_requested,video_starts,time_watched'

// Counted by hand. Asset one: one viewer (device d1) with 2 displays, 2 plays, 1 start, a replay,
// playthroughs 25 and 50, 30 s watched. Asset two: one session without a device id with 1 display,
// 1 play, 1 start, playthrough 100, 10 s watched. No quality events were sent: no startup time, stall,
// failure or rendition measured (each 0, the score therefore 100), and of 3 plays requested 2 started.
const EXPECTED_TOTAL = {
  displays: 3, plays_requested: 3, video_starts: 2, replays: 1,
  playthrough_25: 1, playthrough_50: 1, playthrough_75: 0, playthrough_100: 1,
  time_watched: 40000, avg_time_watched_per_video: 20000, play_conversion_rate: 1, video_conversion_rate: 0.6667,
  uniq_plays_requested: 2,
  startup_time_ms: null, startup_time_ms_p95: null, rebuffer_ratio: 0, rebuffer_frequency: 0, playback_failure_rate: 0,
  exits_before_start: 1, avg_rendition_height: 0, avg_bitrate: 0, viewer_experience_score: 100
}

for (const combo of analyticsCombos()) {
  describe(`GET /v2/analytics/reports, ${combo.name}`, { skip: combo.skip }, () => {
    let t: AnalyticsTestApp
    let one: string
    let two: string
    let other: Caller
    before(async () => {
      t = await buildAnalyticsApp(combo)
      one = await t.asset()
      two = await t.asset()
      const send = async (body: unknown): Promise<void> => { assert.equal((await t.collect(body)).statusCode, 204) }
      await send(batch(t.admin.accountCode, one, [
        { name: 'display', time: at(0) }, { name: 'play_requested', time: at(1) }, { name: 'video_start', time: at(1) },
        { name: 'playthrough', percent: 25, time: at(2) }, { name: 'playthrough', percent: 50, time: at(3) },
        { name: 'time_watched', value: 30000, time: at(4) }, { name: 'replay', time: at(5) },
        { name: 'display', time: at(6) }, { name: 'play_requested', time: at(6) }
      ], { device: { id: 'd1' } }))
      await send(batch(t.admin.accountCode, two, [
        { name: 'display', time: at(10) }, { name: 'play_requested', time: at(10) }, { name: 'video_start', time: at(11) },
        { name: 'playthrough', percent: 100, time: at(20) }, { name: 'time_watched', value: 10000, time: at(20) }
      ]))
      other = await t.otherAccount()
      const theirs = await t.asset(other)
      await send(batch(other.accountCode, theirs, [{ name: 'display', time: at(0) }, { name: 'play_requested', time: at(0) }]))
      await t.flush()
    })
    after(async () => { await t.close() })

    it('answers the total with every metric and costs 5 credits', async () => {
      const before = (await t.signed('GET', '/v2/remaining_credits_and_reset_time')).json().remaining_credits as number
      const res = await t.report(DAY)
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), {
        results: [{ start_date: '2026-11-22T00:00:00Z', end_date: '2026-11-23T00:00:00Z', data: [{ group: {}, metrics: EXPECTED_TOTAL }] }],
        total_count: 1
      })
      assert.equal(Number(res.headers['x-ratelimit-credits']), before - 5)
    })

    it('serves the classic path form, for the account and for one asset, with the same numbers', async () => {
      const classic = await t.signed('GET', CLASSIC)
      assert.equal(classic.statusCode, 200, classic.body)
      assert.deepEqual(classic.json().results[0].data, [{ group: {}, metrics: EXPECTED_TOTAL }])
      const asset = await t.signed('GET', `/v2/analytics/reports/asset/${one}/performance/total/2026-11-22`, { params: { metrics: PLAY_METRICS } })
      assert.deepEqual(asset.json().results[0].data, [{ group: {}, metrics: { displays: 2, plays_requested: 2, video_starts: 1, time_watched: 30000 } }])
      const byAsset = await t.report({ ...DAY, metrics: PLAY_METRICS, filters: `asset=='${one}'` })
      assert.deepEqual(byAsset.json().results[0].data, asset.json().results[0].data)
    })

    it('pages with next_page: the path and filters, then limit and page_token, never the signing parameters', async () => {
      const first = await t.report({ ...DAY, dimensions: 'asset', metrics: 'displays', limit: '1' })
      const next = first.json().next_page as string
      assert.equal(first.json().total_count, 2)
      assert.deepEqual(first.json().results[0].data, [{ group: { asset: one }, metrics: { displays: 2 } }])
      assert.match(next, /^\/v2\/analytics\/reports\?start_date=2026-11-22&end_date=2026-11-23&dimensions=asset&metrics=displays&limit=1&page_token=[^&]+$/)
      assert.doesNotMatch(next, /api_key|expires|signature/)
      const second = await t.signed('GET', next)
      assert.equal(second.statusCode, 200, second.body)
      assert.deepEqual(second.json().results[0].data, [{ group: { asset: two }, metrics: { displays: 1 } }])
      assert.equal(second.json().next_page, undefined)

      const classic = await t.signed('GET', CLASSIC.replace('/total/', '/videos/'), { params: { limit: '1', metrics: 'displays' } })
      assert.match(classic.json().next_page, /^\/v2\/analytics\/reports\/account\/performance\/videos\/2026-11-22\.\.\.2026-11-23\?metrics=displays&limit=1&page_token=/)
    })

    it('reports on a label with its children: an asset of a child label counts for the parent too; rows carry the id and the name', async () => {
      const parent = (await t.signed('POST', '/v2/labels', { body: { name: 'Sports' } })).json().id as string
      const child = (await t.signed('POST', '/v2/labels', { body: { name: 'Hockey', parent_id: parent } })).json().id as string
      assert.equal((await t.signed('POST', `/v2/assets/${one}/labels`, { body: [child] })).statusCode, 200)
      const res = await t.report({ ...DAY, dimensions: 'label', metrics: 'displays' })
      const rows = res.json().results[0].data as Array<{ group: { label: string, label_name: string }, metrics: { displays: number } }>
      assert.deepEqual(Object.fromEntries(rows.map((r) => [r.group.label, r.metrics.displays])), { [parent]: 2, [child]: 2, unknown: 1 })
      assert.deepEqual(Object.fromEntries(rows.map((r) => [r.group.label, r.group.label_name])), { [parent]: 'Sports', [child]: 'Hockey', unknown: 'unknown' })

      // Labels are read once per account per 5 s: asset two joining the parent shows once that has passed.
      assert.equal((await t.signed('POST', `/v2/assets/${two}/labels`, { body: [parent] })).statusCode, 200)
      const onParent = { ...DAY, metrics: 'displays', filters: `label=='${parent}'` }
      assert.deepEqual((await t.report(onParent)).json().results[0].data, [{ group: {}, metrics: { displays: 2 } }])
      t.clock.advance(5000)
      assert.deepEqual((await t.report(onParent)).json().results[0].data, [{ group: {}, metrics: { displays: 3 } }])
      // Another account naming these label ids sees nothing of them.
      const theirs = await t.report({ ...onParent, metrics: 'displays' }, other)
      assert.deepEqual(theirs.json().results[0].data, [])
    })

    it("never shows another account's events, even filtered on their asset", async () => {
      const theirs = await t.report({ ...DAY, metrics: 'displays,plays_requested' }, other)
      assert.deepEqual(theirs.json().results[0].data, [{ group: {}, metrics: { displays: 1, plays_requested: 1 } }])
      const probing = await t.report({ ...DAY, metrics: 'displays', filters: `asset=='${one}'` }, other)
      assert.deepEqual(probing.json().results[0].data, [])
      const classic = await t.signed('GET', `/v2/analytics/reports/asset/${one}/performance/total/2026-11-22`, { as: other })
      assert.deepEqual(classic.json().results[0].data, [])
    })

    for (const role of ['manager', 'analytics_only', 'read_only'] as const) {
      it(`lets ${role} read reports`, async () => {
        const user = await t.userWithRole(role)
        const res = await t.report({ ...DAY, metrics: 'displays' }, user)
        assert.equal(res.statusCode, 200, res.body)
        assert.deepEqual(res.json().results[0].data, [{ group: {}, metrics: { displays: 3 } }])
        assert.equal((await t.signed('GET', CLASSIC, { as: user })).statusCode, 200)
      })
    }

    it('refuses upload_only with 403 on both forms', async () => {
      const user = await t.userWithRole('upload_only')
      for (const res of [await t.report(DAY, user), await t.signed('GET', CLASSIC, { as: user })]) {
        assert.equal(res.statusCode, 403)
        assert.equal(res.json().message, 'Role upload_only may not read analytics.')
      }
    })
  })
}
