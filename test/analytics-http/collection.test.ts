import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, it } from 'node:test'
import { analyticsCombos, batch, buildAnalyticsApp, DAY, displays, EVENT_TIME, totals, type AnalyticsTestApp } from './support/harness.ts'

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'

for (const combo of analyticsCombos()) {
  describe(`POST /v2/analytics/events, ${combo.name}`, { skip: combo.skip }, () => {
    let t: AnalyticsTestApp | undefined
    afterEach(async () => { await t?.close(); t = undefined })

    it('answers 204 once the batch is in the spool on disk, and the next report counts it', async () => {
      t = await buildAnalyticsApp(combo)
      const asset = await t.asset()
      const sent = batch(t.admin.accountCode, asset, displays(4))
      const res = await t.collect(sent)
      assert.equal(res.statusCode, 204)
      // Before any write to the store, the batch is already journaled (docs/analytics.md: durable on 204).
      const spool = join(t.config.dataDir, 'analytics-spool')
      const journal = readdirSync(spool).filter((f) => f.startsWith('segment-')).map((f) => readFileSync(join(spool, f), 'utf8')).join('')
      assert.ok(journal.includes(sent.session_id as string))
      await t.flush()
      assert.equal(totals(await t.report({ ...DAY, metrics: 'displays' }))?.displays, 4)
    })

    it('is served on the cdn listener too, POST and its preflight, while other writes there stay 405', async () => {
      t = await buildAnalyticsApp(combo, {}, 'cdn')
      const refused = await t.signed('POST', '/v2/labels', { body: { name: 'x' } })
      assert.equal(refused.statusCode, 405)
      // An asset made straight in the database: the cdn app serves no resource writes.
      await t.ctx.db.insertInto('assets').values(assetRow(t.admin.accountId, 'cdn-asset')).execute()
      const preflight = await t.app.inject({ method: 'OPTIONS', url: '/v2/analytics/events', headers: { origin: 'https://player.example', 'access-control-request-method': 'POST' } })
      assert.equal(preflight.statusCode, 204)
      assert.equal(preflight.headers['access-control-allow-methods'], 'POST, OPTIONS')
      assert.equal(preflight.headers['access-control-allow-origin'], '*')
      const res = await t.collect(batch(t.admin.accountCode, 'cdn-asset', displays(2)))
      assert.equal(res.statusCode, 204, res.body)
      assert.equal(res.headers['cache-control'], 'no-store')
      await t.flush()
      assert.equal(totals(await t.report({ ...DAY, metrics: 'displays' }))?.displays, 2)
    })

    it('sends CORS headers on this route only', async () => {
      t = await buildAnalyticsApp(combo)
      const asset = await t.asset()
      const ok = await t.collect(batch(t.admin.accountCode, asset, displays(1)))
      assert.equal(ok.headers['access-control-allow-origin'], '*')
      for (const res of [await t.app.inject({ method: 'GET', url: '/health' }), await t.signed('GET', '/v2/users'), await t.report(DAY)]) {
        assert.equal(res.headers['access-control-allow-origin'], undefined)
      }
    })

    it('limits batches per client address (429 with Retry-After), apart from every account\'s credits', async () => {
      const app = t = await buildAnalyticsApp(combo, { ANALYTICS_COLLECT_PER_MINUTE: '3' })
      const asset = await app.asset()
      const credits = (await app.signed('GET', '/v2/remaining_credits_and_reset_time')).json().remaining_credits
      app.clock.advance(15_000) // 45 s left in the window
      const send = async (remoteAddress: string, body: unknown = batch(app.admin.accountCode, asset, displays(1))) => await app.collect(body, { remoteAddress })
      for (const left of [2, 1, 0]) {
        const res = await send('203.0.113.7')
        assert.equal(res.statusCode, 204)
        assert.equal(res.headers['x-ratelimit-credits'], String(left))
      }
      const refused = await send('203.0.113.7')
      assert.equal(refused.statusCode, 429)
      assert.equal(refused.headers['retry-after'], '45')
      assert.equal(refused.json().message, 'Request limit exceeded for client address 203.0.113.7 (3 event batches a minute). Try again after 45 seconds.')
      assert.equal(refused.headers['access-control-allow-origin'], '*')
      // Checked before the body: a refused client learns nothing about its batch.
      assert.equal((await send('203.0.113.7', '{not json')).statusCode, 429)
      assert.equal((await send('198.51.100.2')).statusCode, 204)
      assert.equal(await t.stored(), 4)
      assert.equal((await t.signed('GET', '/v2/remaining_credits_and_reset_time')).json().remaining_credits, credits)
      t.clock.advance(45_000)
      assert.equal((await send('203.0.113.7')).statusCode, 204)
    })

    it('takes device type, OS and browser from the User-Agent and the domain from the Referer', async () => {
      t = await buildAnalyticsApp(combo)
      const asset = await t.asset()
      const res = await t.collect(batch(t.admin.accountCode, asset, displays(1)), { headers: { 'user-agent': IPHONE, referer: 'https://News.Example.com/watch?v=1' } })
      assert.equal(res.statusCode, 204)
      await t.flush()
      const report = await t.report({ ...DAY, dimensions: 'device_type,os,browser', metrics: 'displays', filters: "domain=='news.example.com'" })
      assert.deepEqual(report.json().results[0].data, [{ group: { device_type: 'mobile', os: 'ios', browser: 'safari' }, metrics: { displays: 1 } }])
    })

    it("counts a batch in its own account only, and refuses one account's code with another's asset", async () => {
      t = await buildAnalyticsApp(combo)
      const other = await t.otherAccount()
      const ours = await t.asset()
      const theirs = await t.asset(other)
      assert.equal((await t.collect(batch(other.accountCode, theirs, displays(5)))).statusCode, 204)
      assert.equal((await t.collect(batch(t.admin.accountCode, ours, displays(2)))).statusCode, 204)
      const mixed = await t.collect(batch(other.accountCode, ours, displays(1)))
      assert.deepEqual([mixed.statusCode, mixed.json().message], [400, `Unknown asset_id '${ours}'.`])
      await t.flush()
      assert.equal(totals(await t.report({ ...DAY, metrics: 'displays' }))?.displays, 2)
      assert.equal(totals(await t.report({ ...DAY, metrics: 'displays' }, other))?.displays, 5)
    })
  })
}

function assetRow (accountId: string, id: string) {
  const now = EVENT_TIME.replace('Z', '.000Z')
  return {
    id, account_id: accountId, asset_type: 'remote_asset', name: 'Clip', description: '', external_id: null, status: 'live', post_processing_status: 'live', mp4_support: 'none', encryption: 'none',
    duration: 0, original_file_name: null, file_size: null, chunk_size: null, preview_image_url: null, player_id: null, publishing_rule_id: null,
    time_restrictions: null, restriction_start: null, restriction_end: null, stream_urls: null, youtube_id: null, click_url: null, created_by: null,
    media_token: null, media_version: null, processing_progress: 0, processing_error: null,
    created_at: now, updated_at: now
  }
}
