import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'

const DEFAULT_TIME = { type: 'range', start_date: null, end_date: null, start_time: null, end_time: null, all_day: false, recurring_days: [], time_zone: 'UTC' }

for (const backend of databaseBackends()) {
  describe(`/v2/publishing_rules on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let as: Caller
    before(async () => {
      t = await buildTestApp(backend.name)
      as = await t.otherAccount()
    })
    after(async () => { await t.close() })

    async function call (method: string, path: string, body?: object) {
      const res = await t.signed(method, path, { as, body })
      return { status: res.statusCode, json: res.json() }
    }
    async function create (body: object) {
      t.clock.advance(1)
      const res = await call('POST', '/v2/publishing_rules', body)
      assert.equal(res.status, 200, JSON.stringify(res.json))
      return res.json
    }

    it('creates a rule with the defaults of Backlot\'s create example', async () => {
      const rule = await create({ name: 'My Basic Publishing Rule' })
      assert.match(rule.id, /^[0-9a-f]{32}$/)
      assert.deepEqual(rule, {
        id: rule.id,
        name: 'My Basic Publishing Rule',
        allowed_devices: ['iphone', 'ipad', 'android', 'blackberry'],
        time_restrictions: DEFAULT_TIME,
        domain_restrictions: { type: 'deny', domains: [], allow_no_referrer: false },
        geographic_restrictions: { type: 'deny', countries: [] },
        playback_policy: 'public',
        created_at: rule.created_at,
        updated_at: rule.updated_at
      })
      assert.deepEqual((await call('GET', `/v2/publishing_rules/${rule.id}`)).json, rule)
    })

    it('normalises what it stores: Backlot list types, host and country case, repeats, date zones, times', async () => {
      const rule = await create({
        name: 'Geo',
        allowed_devices: ['ipad', 'ipad', 'android'],
        domain_restrictions: { type: 'whitelist', domains: ['Example.COM', '*.cdn.example.org', 'example.com'] },
        geographic_restrictions: { type: 'blacklist', countries: ['us', 'EU', 'US'] },
        time_restrictions: { type: 'recurring', start_time: '20:00', end_time: '23:30:15', recurring_days: ['sunday', 'monday', 'sunday'], start_date: '2026-12-01T01:00:00+01:00' }
      })
      assert.deepEqual(rule.allowed_devices, ['ipad', 'android'])
      assert.deepEqual(rule.domain_restrictions, { type: 'allow', domains: ['example.com', '*.cdn.example.org'], allow_no_referrer: false })
      assert.deepEqual(rule.geographic_restrictions, { type: 'deny', countries: ['US', 'EU'] })
      assert.deepEqual(rule.time_restrictions, {
        type: 'recurring', start_date: '2026-12-01T00:00:00Z', end_date: null, start_time: '20:00:00', end_time: '23:30:15', all_day: false, recurring_days: ['monday', 'sunday'], time_zone: 'UTC'
      })
    })

    it('PATCH changes only the fields given; nested objects merge, lists replace', async () => {
      const rule = await create({ name: 'R', domain_restrictions: { type: 'allow', domains: ['a.com'] }, geographic_restrictions: { countries: ['FR'] } })
      const res = await call('PATCH', `/v2/publishing_rules/${rule.id}`, { domain_restrictions: { domains: ['b.com'] }, time_restrictions: { end_date: '2027-01-01T00:00:00Z' } })
      assert.equal(res.status, 200)
      assert.deepEqual(res.json.domain_restrictions, { type: 'allow', domains: ['b.com'], allow_no_referrer: false })
      assert.deepEqual(res.json.geographic_restrictions, { type: 'deny', countries: ['FR'] })
      assert.deepEqual(res.json.time_restrictions, { ...DEFAULT_TIME, end_date: '2027-01-01T00:00:00Z' })
      assert.equal(res.json.name, 'R')
      const all = await call('PATCH', `/v2/publishing_rules/${rule.id}`, { allowed_devices: [] })
      assert.deepEqual(all.json.allowed_devices, [], 'an empty list allows every device')
    })

    it('PUT replaces the rule: omitted fields return to their defaults, the id stays', async () => {
      const rule = await create({ name: 'R', allowed_devices: ['iphone'], geographic_restrictions: { type: 'allow', countries: ['DE'] } })
      const res = await call('PUT', `/v2/publishing_rules/${rule.id}`, { name: 'S', domain_restrictions: { domains: ['x.org'] } })
      assert.deepEqual(res.json, {
        ...rule,
        name: 'S',
        allowed_devices: ['iphone', 'ipad', 'android', 'blackberry'],
        domain_restrictions: { type: 'deny', domains: ['x.org'], allow_no_referrer: false },
        geographic_restrictions: { type: 'deny', countries: [] },
        updated_at: res.json.updated_at
      })
    })

    it('accepts an all-day recurring restriction without times', async () => {
      const rule = await create({ name: 'Weekends', time_restrictions: { type: 'recurring', all_day: 'true', recurring_days: ['saturday', 'sunday'] } })
      assert.equal(rule.time_restrictions.all_day, true)
    })

    it('pages rules oldest first and deletes them', async () => {
      as = await t.otherAccount()
      const made = [await create({ name: '1' }), await create({ name: '2' }), await create({ name: '3' })]
      const first = (await call('GET', '/v2/publishing_rules?limit=2')).json
      assert.deepEqual(first.items, made.slice(0, 2))
      assert.match(first.next_page, /^\/v2\/publishing_rules\?limit=2&page_token=[^&]+$/)
      assert.deepEqual((await call('GET', first.next_page)).json, { items: [made[2]] })
      assert.deepEqual((await call('DELETE', `/v2/publishing_rules/${made[0].id}`)).json, {})
      assert.equal((await call('GET', `/v2/publishing_rules/${made[0].id}`)).status, 404)
      assert.deepEqual((await call('GET', '/v2/publishing_rules')).json, { items: made.slice(1) })
    })
  })
}
