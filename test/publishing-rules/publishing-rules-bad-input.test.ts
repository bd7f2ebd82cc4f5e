import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { type BadInputRow, forge, itAnswersEachRow, LIMIT_MESSAGE, pagingRows, tokenOf } from '../support/bad-input.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

const UNKNOWN = 'ffffffffffffffffffffffffffffffff'
const TYPES = 'must be one of allow, deny, whitelist, blacklist'

for (const backend of databaseBackends()) {
  describe(`/v2/publishing_rules bad input on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let rule: { id: string }
    let token: string
    let playersToken: string
    before(async () => {
      t = await buildTestApp(backend.name)
      rule = (await t.signed('POST', '/v2/publishing_rules', { body: { name: 'R' } })).json()
      await t.signed('POST', '/v2/publishing_rules', { body: { name: 'S' } })
      token = tokenOf((await t.signed('GET', '/v2/publishing_rules?limit=1')).json().next_page)
      await t.signed('POST', '/v2/players', { body: { name: 'P1' } })
      await t.signed('POST', '/v2/players', { body: { name: 'P2' } })
      playersToken = tokenOf((await t.signed('GET', '/v2/players?limit=1')).json().next_page)
    })
    after(async () => { await t.close() })

    const create = (): string => '/v2/publishing_rules'
    const one = (): string => `/v2/publishing_rules/${rule.id}`
    const rows: BadInputRow[] = [
      { name: 'create without a name', method: 'POST', path: create, body: {}, status: 400, message: 'Field name is required.' },
      { name: 'create with an unknown field', method: 'POST', path: create, body: { name: 'x', proxy_restrictions: {} }, status: 400, message: 'Unknown fields: proxy_restrictions.' },
      { name: 'create with an unknown nested field', method: 'POST', path: create, body: { name: 'x', geographic_restrictions: { dmas: [] } }, status: 400, message: 'Unknown fields: geographic_restrictions.dmas.' },
      { name: 'create with a number as name', method: 'POST', path: create, body: { name: 3 }, status: 400, message: 'Field name must be a string.' },
      { name: 'create with an over-long name', method: 'POST', path: create, body: { name: 'x'.repeat(256) }, status: 400, message: 'Field name must be at most 255 characters long.' },
      { name: 'create with control characters', method: 'POST', path: create, body: { name: 'a\u001bb' }, status: 400, message: 'Field name must not contain control characters.' },
      { name: 'create with an unknown device', method: 'POST', path: create, body: { name: 'x', allowed_devices: ['tv'] }, status: 400, message: 'Field allowed_devices.0 must be one of iphone, ipad, android, blackberry, desktop, mobile, tablet, settop.' },
      { name: 'create with devices as a string', method: 'POST', path: create, body: { name: 'x', allowed_devices: 'iphone' }, status: 400, message: 'Field allowed_devices must be an array.' },
      { name: 'create with an unknown domain list type', method: 'POST', path: create, body: { name: 'x', domain_restrictions: { type: 'block' } }, status: 400, message: `Field domain_restrictions.type ${TYPES}.` },
      { name: 'create with a URL as domain', method: 'POST', path: create, body: { name: 'x', domain_restrictions: { domains: ['https://a.com/'] } }, status: 400, message: 'Field domain_restrictions.domains.0 has an invalid format.' },
      { name: 'create with 1,001 domains', method: 'POST', path: create, body: { name: 'x', domain_restrictions: { domains: Array.from({ length: 1001 }, (_, i) => `d${i}.com`) } }, status: 400, message: 'Field domain_restrictions.domains must have at most 1000 items.' },
      { name: 'create with a three-letter country', method: 'POST', path: create, body: { name: 'x', geographic_restrictions: { countries: ['USA'] } }, status: 400, message: 'Field geographic_restrictions.countries.0 has an invalid format.' },
      { name: 'create with an unknown geographic type', method: 'POST', path: create, body: { name: 'x', geographic_restrictions: { type: 'only' } }, status: 400, message: `Field geographic_restrictions.type ${TYPES}.` },
      { name: 'create with an unknown time type', method: 'POST', path: create, body: { name: 'x', time_restrictions: { type: 'weekly' } }, status: 400, message: 'Field time_restrictions.type must be one of range, recurring.' },
      { name: 'create with a date without a zone', method: 'POST', path: create, body: { name: 'x', time_restrictions: { start_date: '2026-01-01T00:00:00' } }, status: 400, message: 'Field time_restrictions.start_date must be a valid date-time.' },
      { name: 'create with a plain-word date', method: 'POST', path: create, body: { name: 'x', time_restrictions: { end_date: 'tomorrow' } }, status: 400, message: 'Field time_restrictions.end_date must be a valid date-time.' },
      { name: 'create with an end before the start', method: 'POST', path: create, body: { name: 'x', time_restrictions: { start_date: '2026-02-01T00:00:00Z', end_date: '2026-01-01T00:00:00Z' } }, status: 400, message: 'Field time_restrictions.end_date must be later than time_restrictions.start_date.' },
      { name: 'create with a time of 25:00:00', method: 'POST', path: create, body: { name: 'x', time_restrictions: { start_time: '25:00:00' } }, status: 400, message: 'Field time_restrictions.start_time has an invalid format.' },
      { name: 'create with an unknown day', method: 'POST', path: create, body: { name: 'x', time_restrictions: { recurring_days: ['someday'] } }, status: 400, message: 'Field time_restrictions.recurring_days.0 must be one of monday, tuesday, wednesday, thursday, friday, saturday, sunday.' },
      { name: 'create a recurring rule without days', method: 'POST', path: create, body: { name: 'x', time_restrictions: { type: 'recurring', all_day: true } }, status: 400, message: 'Field time_restrictions.recurring_days must name at least one day when type is recurring.' },
      { name: 'create a recurring rule without times', method: 'POST', path: create, body: { name: 'x', time_restrictions: { type: 'recurring', recurring_days: ['monday'] } }, status: 400, message: 'Field time_restrictions.start_time is required when type is recurring and all_day is false.' },
      { name: 'create with an unknown time zone', method: 'POST', path: create, body: { name: 'x', time_restrictions: { time_zone: 'Mars/Olympus' } }, status: 400, message: 'Field time_restrictions.time_zone must be an IANA time zone name, such as Europe/Lisbon.' },
      { name: 'create with a time zone of the wrong shape', method: 'POST', path: create, body: { name: 'x', time_restrictions: { time_zone: '+01:00' } }, status: 400, message: 'Field time_restrictions.time_zone has an invalid format.' },
      { name: 'create with allow_no_referrer "maybe"', method: 'POST', path: create, body: { name: 'x', domain_restrictions: { allow_no_referrer: 'maybe' } }, status: 400, message: 'Field domain_restrictions.allow_no_referrer must be a boolean.' },
      { name: 'create with all_day "yes"', method: 'POST', path: create, body: { name: 'x', time_restrictions: { all_day: 'yes' } }, status: 400, message: 'Field time_restrictions.all_day must be a boolean.' },
      { name: 'create with invalid JSON', method: 'POST', path: create, body: '{"name": "x",}', status: 400, message: 'Request body is not valid JSON.' },
      { name: 'patch with an empty name', method: 'PATCH', path: one, body: { name: '' }, status: 400, message: 'Field name must not be empty.' },
      { name: 'patch with time_restrictions as null', method: 'PATCH', path: one, body: { time_restrictions: null }, status: 400, message: 'Field time_restrictions must be an object.' },
      { name: 'patch an unknown rule', method: 'PATCH', path: () => `/v2/publishing_rules/${UNKNOWN}`, body: { name: 'x' }, status: 404, message: `Publishing rule ${UNKNOWN} does not exist.` },
      { name: 'put without a name', method: 'PUT', path: one, body: { allowed_devices: [] }, status: 400, message: 'Field name is required.' },
      { name: 'get an encoded id', method: 'GET', path: () => '/v2/publishing_rules/a%20b', status: 404, message: 'Publishing rule a b does not exist.' },
      { name: 'get an id of the wrong shape', method: 'GET', path: () => '/v2/publishing_rules/XYZ', status: 404, message: 'Publishing rule XYZ does not exist.' },
      { name: 'delete an unknown rule', method: 'DELETE', path: () => `/v2/publishing_rules/${UNKNOWN}`, status: 404, message: `Publishing rule ${UNKNOWN} does not exist.` },
      ...pagingRows('/v2/publishing_rules'),
      { name: 'limit 1e2', method: 'GET', path: () => '/v2/publishing_rules?limit=1e2', status: 400, message: LIMIT_MESSAGE },
      { name: 'a forged page token', method: 'GET', path: () => `/v2/publishing_rules?limit=1&page_token=${encodeURIComponent(forge(token))}`, status: 400, message: 'Parameter page_token is not a valid page token.' },
      { name: 'a page token of /v2/players', method: 'GET', path: () => `/v2/publishing_rules?limit=1&page_token=${encodeURIComponent(playersToken)}`, status: 400, message: 'Parameter page_token belongs to a different query.' },
      { name: 'a page token with another limit', method: 'GET', path: () => `/v2/publishing_rules?limit=2&page_token=${encodeURIComponent(token)}&name=x`, status: 400, message: 'Parameter page_token belongs to a different query.' }
    ]
    itAnswersEachRow(() => t, rows, ['publishing_rules'])

    it('answers 200 to a valid create, and writes it', async () => {
      const res = await t.signed('POST', '/v2/publishing_rules', { body: { name: 'Fine', allowed_devices: [], geographic_restrictions: { type: 'allow', countries: ['pt'] } } })
      assert.equal(res.statusCode, 200, res.body)
    })
  })
}
