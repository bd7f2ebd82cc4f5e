import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { EVENT_NAMES } from '../../src/analytics/index.ts'
import { analyticsCombos, buildAnalyticsApp, EVENT_TIME, type AnalyticsTestApp } from './support/harness.ts'

const names = EVENT_NAMES.join(', ')
const ev = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name: 'display', time: EVENT_TIME, ...extra })

interface Row {
  name: string
  /** The body, given the account code, one of its assets and an asset of another account. */
  body: (code: string, asset: string, foreign: string) => unknown
  headers?: Record<string, string>
  status: number
  message: string | ((foreign: string) => string)
}

const BAD: Row[] = [
  { name: 'a body that is not JSON', body: () => '{"account_code":', status: 400, message: 'Request body is not valid JSON.' },
  { name: 'bytes that are not UTF-8', body: () => Buffer.from([0x7b, 0xff, 0x7d]), status: 400, message: 'Request body must be UTF-8 encoded JSON.' },
  { name: 'a body over 1 MiB', body: () => Buffer.alloc(1024 * 1024 + 1, 32), status: 413, message: 'Request body is too large.' },
  { name: 'a JSON array', body: () => [], status: 400, message: 'The body must be a JSON object.' },
  { name: 'an empty body', body: () => '', status: 400, message: 'account_code is required.' },
  { name: 'no account_code', body: (_c, asset) => ({ session_id: 's', asset_id: asset, events: [ev()] }), status: 400, message: 'account_code is required.' },
  { name: 'an unknown account_code', body: (_c, asset) => ({ account_code: 'nope', session_id: 's', asset_id: asset, events: [ev()] }), status: 400, message: "Unknown account_code 'nope'." },
  { name: 'an unknown asset', body: (code) => ({ account_code: code, session_id: 's', asset_id: 'no-such-asset', events: [ev()] }), status: 400, message: "Unknown asset_id 'no-such-asset'." },
  { name: "another account's asset", body: (code, _a, foreign) => ({ account_code: code, session_id: 's', asset_id: foreign, events: [ev()] }), status: 400, message: (foreign) => `Unknown asset_id '${foreign}'.` },
  { name: 'no session_id', body: (code, asset) => ({ account_code: code, asset_id: asset, events: [ev()] }), status: 400, message: 'session_id is required.' },
  { name: 'no events', body: (code, asset) => ({ account_code: code, session_id: 's', asset_id: asset }), status: 400, message: 'events must be an array of 1 to 1000 events.' },
  { name: '1,001 events', body: (code, asset) => ({ account_code: code, session_id: 's', asset_id: asset, events: Array.from({ length: 1001 }, () => ev()) }), status: 400, message: 'events must be an array of 1 to 1000 events.' },
  { name: 'an unknown event name', body: (code, asset) => ({ account_code: code, session_id: 's', asset_id: asset, events: [ev(), ev({ name: 'click' })] }), status: 400, message: `events[1].name must be one of ${names}.` },
  { name: 'a time 8 days old', body: (code, asset) => ({ account_code: code, session_id: 's', asset_id: asset, events: [ev({ time: '2026-11-14T09:59:59Z' })] }), status: 400, message: 'events[0].time is outside the accepted window (7 days before to 10 minutes after the server time).' },
  { name: 'a time in epoch seconds', body: (code, asset) => ({ account_code: code, session_id: 's', asset_id: asset, events: [ev(), ev({ time: 1795341000 })] }), status: 400, message: 'events[1].time must be milliseconds since the Unix epoch; this looks like seconds (in milliseconds: 1795341000000).' },
  { name: 'a playthrough of 30 %', body: (code, asset) => ({ account_code: code, session_id: 's', asset_id: asset, events: [ev({ name: 'playthrough', percent: 30 })] }), status: 400, message: 'events[0].percent must be 25, 50, 75 or 100.' },
  { name: 'a three-letter country', body: (code, asset) => ({ account_code: code, session_id: 's', asset_id: asset, country: 'USA', events: [ev()] }), status: 400, message: 'country must be a two-letter ISO 3166 country code.' },
  { name: 'a duplicated query parameter', body: (code, asset) => ({ account_code: code, session_id: 's', asset_id: asset, events: [ev()] }), headers: { 'x-query': 'a=1&a=2' }, status: 400, message: 'These parameters appear more than once: a.' }
]

for (const combo of analyticsCombos()) {
  describe(`POST /v2/analytics/events: bad input, ${combo.name}`, { skip: combo.skip }, () => {
    let t: AnalyticsTestApp
    let asset: string
    let foreign: string
    before(async () => {
      t = await buildAnalyticsApp(combo)
      asset = await t.asset()
      foreign = await t.asset(await t.otherAccount())
    })
    after(async () => { await t.close() })

    for (const row of BAD) {
      it(`answers ${row.status} to ${row.name}, with CORS, and stores nothing`, async () => {
        const body = row.body(t.admin.accountCode, asset, foreign)
        const query = row.headers?.['x-query']
        const res = query === undefined
          ? await t.collect(body)
          : await t.app.inject({ method: 'POST', url: `/v2/analytics/events?${query}`, payload: JSON.stringify(body) })
        assert.equal(res.statusCode, row.status, res.body)
        assert.equal(res.json().message, typeof row.message === 'string' ? row.message : row.message(foreign))
        assert.equal(res.headers['access-control-allow-origin'], '*')
        assert.equal(await t.stored(), 0)
      })
    }

    it('accepts the corrected batch (204, no body) and stores its events', async () => {
      const res = await t.collect({ account_code: t.admin.accountCode, session_id: 's', asset_id: asset, events: [ev(), ev({ name: 'playthrough', percent: 25 })] })
      assert.equal(res.statusCode, 204, res.body)
      assert.equal(res.body, '')
      assert.equal(await t.stored(t.admin.accountId), 2)
    })
  })
}
