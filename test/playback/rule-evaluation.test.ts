import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { FastifyRequest } from 'fastify'
import { decide, type ServedAsset } from '../../src/media/serving/media-access.ts'
import { deviceInfo } from '../../src/analytics/index.ts'
import { ApiError } from '../../src/errors/index.ts'
import { compileRules, enforceRules, type RuleRestrictions, type TimeWindow, type Viewer } from '../../src/media/serving/playback-rules.ts'

/** Real user agents, as browsers and apps send them. */
const UA = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  androidPhone: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  blackberry: 'Mozilla/5.0 (BB10; Touch) AppleWebKit/537.1+ (KHTML, like Gecko) Version/10.0.0.1337 Mobile Safari/537.1+',
  tizenTv: 'Mozilla/5.0 (SMART-TV; LINUX; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) 76.0.3809.146/6.0 TV Safari/537.36'
}

const lookups = { deviceType: (ua: string | undefined) => deviceInfo(ua).deviceType, country: (ip: string) => ip.startsWith('81.2.69.') ? 'GB' : undefined }
const viewer: Viewer = { now: Date.parse('2026-11-25T12:00:00Z'), userAgent: UA.chromeWindows, origin: undefined, referer: undefined, address: '10.0.0.1' }
const NO_TIME: TimeWindow = { type: 'range', start_date: null, end_date: null, start_time: null, end_time: null, all_day: false, recurring_days: [], time_zone: 'UTC' }
const rule = (over: Partial<RuleRestrictions>): RuleRestrictions => ({
  allowed_devices: [], time_restrictions: NO_TIME, domain_restrictions: { type: 'deny', domains: [], allow_no_referrer: false }, geographic_restrictions: { type: 'deny', countries: [] }, ...over
})

function refusal (rules: RuleRestrictions | null, assetTimes: TimeWindow | null, over: Partial<Viewer>): string {
  try {
    enforceRules(compileRules(assetTimes, rules), { ...viewer, ...over }, lookups)
    return 'allowed'
  } catch (error) {
    assert.ok(error instanceof ApiError)
    assert.equal(error.status, 403)
    return error.code
  }
}

describe('only a live asset\'s media plays', () => {
  const asset: ServedAsset = { accountId: 'a', assetId: 'b', version: 'v'.repeat(22), originalKey: 'k', originalFileName: 'f.mp4', status: 'live', ruleId: null, playbackPolicy: null, timeRestrictions: null, playerId: null, encryption: 'none', renditions: [] }
  const request = {} as unknown as FastifyRequest
  for (const [status, version, code] of [
    ['live', 'v'.repeat(22), 'allowed'],
    ['paused', 'v'.repeat(22), 'asset_paused'],
    ['error', null, 'asset_errored'],
    ['processing', null, 'asset_not_ready'],
    ['uploading', null, 'asset_not_ready'],
    ['live', null, 'asset_not_ready']
  ] as const) {
    it(`${status}${version === null ? ' without media' : ''}: ${code}`, () => {
      try {
        decide({ ...asset, status, version }, { what: 'master' }, request)
        assert.equal('allowed', code)
      } catch (error) {
        assert.ok(error instanceof ApiError)
        assert.equal(error.code, code)
        assert.equal(error.status, 403)
      }
    })
  }
  it('a token naming no asset (a deleted one) is a 404', () => {
    assert.throws(() => decide(undefined, { what: 'master' }, request), { code: 'media_not_found', status: 404 })
  })
})

describe('publishing rules, evaluated', () => {
  it('a range allows from its start to its end', () => {
    const window = { ...NO_TIME, start_date: '2026-12-01T00:00:00Z', end_date: '2026-12-02T00:00:00Z' }
    assert.equal(refusal(null, window, { now: Date.parse('2026-11-30T23:59:59Z') }), 'playback_time_refused')
    assert.equal(refusal(null, window, { now: Date.parse('2026-12-01T00:00:00Z') }), 'allowed')
    assert.equal(refusal(null, window, { now: Date.parse('2026-12-02T00:00:00Z') }), 'playback_time_refused')
    assert.equal(refusal(rule({ time_restrictions: window }), null, { now: Date.parse('2026-12-01T12:00:00Z') }), 'allowed')
  })

  it('a recurring window across midnight in a named zone belongs to the day it starts on', () => {
    // Fridays 22:00–02:00 in New York (UTC−5 in November).
    const window = { ...NO_TIME, type: 'recurring', start_time: '22:00:00', end_time: '02:00:00', recurring_days: ['friday'], time_zone: 'America/New_York' }
    const cases: Array<[string, string]> = [
      ['2026-11-28T02:59:00Z', 'playback_time_refused'], // Fri 21:59 NY
      ['2026-11-28T03:00:00Z', 'allowed'], // Fri 22:00 NY
      ['2026-11-28T06:59:00Z', 'allowed'], // Sat 01:59 NY
      ['2026-11-28T07:00:00Z', 'playback_time_refused'], // Sat 02:00 NY
      ['2026-11-27T06:30:00Z', 'playback_time_refused'] // Fri 01:30 NY: Thursday's night, not allowed
    ]
    for (const [at, answer] of cases) assert.equal(refusal(null, window, { now: Date.parse(at) }), answer, at)
  })

  it('a recurring window across the week boundary runs from Sunday night into Monday', () => {
    const window = { ...NO_TIME, type: 'recurring', start_time: '23:00', end_time: '01:00', recurring_days: ['sunday'], time_zone: 'Asia/Tokyo' }
    const cases: Array<[string, string]> = [
      ['2026-11-29T13:59:00Z', 'playback_time_refused'], // Sun 22:59 Tokyo
      ['2026-11-29T14:00:00Z', 'allowed'], // Sun 23:00
      ['2026-11-29T15:30:00Z', 'allowed'], // Mon 00:30
      ['2026-11-29T16:00:00Z', 'playback_time_refused'], // Mon 01:00
      ['2026-11-22T15:30:00Z', 'allowed'] // the Monday before, 00:30
    ]
    for (const [at, answer] of cases) assert.equal(refusal(null, window, { now: Date.parse(at) }), answer, at)
    const allDay = { ...NO_TIME, type: 'recurring', all_day: true, recurring_days: ['saturday', 'sunday'], time_zone: 'Europe/Lisbon' }
    assert.equal(refusal(null, allDay, { now: Date.parse('2026-11-29T23:59:00Z') }), 'allowed') // Sun 23:59 Lisbon
    assert.equal(refusal(null, allDay, { now: Date.parse('2026-11-30T00:00:00Z') }), 'playback_time_refused') // Mon 00:00
  })

  it('the asset\'s own window and its rule\'s must both allow', () => {
    const future = { ...NO_TIME, start_date: '2027-01-01T00:00:00Z' }
    assert.equal(refusal(rule({}), future, {}), 'playback_time_refused')
    assert.equal(refusal(rule({ time_restrictions: future }), NO_TIME, {}), 'playback_time_refused')
  })

  it('devices: families from the user agent, device types as analytics names them', () => {
    const families = rule({ allowed_devices: ['iphone', 'ipad', 'android', 'blackberry'] })
    for (const ua of Object.values(UA)) assert.equal(refusal(families, null, { userAgent: ua }), 'allowed', ua)
    const iphoneOnly = rule({ allowed_devices: ['iphone'] })
    assert.equal(refusal(iphoneOnly, null, { userAgent: UA.iphone }), 'allowed')
    assert.equal(refusal(iphoneOnly, null, { userAgent: UA.androidPhone }), 'playback_device_refused')
    assert.equal(refusal(iphoneOnly, null, { userAgent: UA.ipad }), 'playback_device_refused')
    const desktop = rule({ allowed_devices: ['desktop'] })
    assert.equal(refusal(desktop, null, { userAgent: UA.chromeWindows }), 'allowed')
    assert.equal(refusal(desktop, null, { userAgent: UA.safariMac }), 'allowed')
    assert.equal(refusal(desktop, null, { userAgent: UA.iphone }), 'playback_device_refused')
    assert.equal(refusal(desktop, null, { userAgent: UA.tizenTv }), 'playback_device_refused')
    assert.equal(refusal(desktop, null, { userAgent: undefined }), 'playback_device_refused')
    const tablets = rule({ allowed_devices: ['tablet', 'settop'] })
    assert.equal(refusal(tablets, null, { userAgent: UA.ipad }), 'allowed')
    assert.equal(refusal(tablets, null, { userAgent: UA.androidTablet }), 'allowed')
    assert.equal(refusal(tablets, null, { userAgent: UA.tizenTv }), 'allowed')
    assert.equal(refusal(tablets, null, { userAgent: UA.androidPhone }), 'playback_device_refused')
  })

  it('domains: Origin, else Referer; *.example.com matches subdomains only; no site only with allow_no_referrer', () => {
    const allow = rule({ domain_restrictions: { type: 'allow', domains: ['example.com', '*.example.org'] } })
    assert.equal(refusal(allow, null, { origin: 'https://example.com' }), 'allowed')
    assert.equal(refusal(allow, null, { origin: 'https://www.example.com' }), 'playback_domain_refused')
    assert.equal(refusal(allow, null, { origin: 'https://a.b.example.org' }), 'allowed')
    assert.equal(refusal(allow, null, { origin: 'https://example.org' }), 'playback_domain_refused')
    assert.equal(refusal(allow, null, { origin: 'https://evil-example.org' }), 'playback_domain_refused')
    assert.equal(refusal(allow, null, { referer: 'https://example.com/watch?v=1' }), 'allowed')
    assert.equal(refusal(allow, null, { origin: 'https://other.test', referer: 'https://example.com/' }), 'playback_domain_refused')
    assert.equal(refusal(allow, null, {}), 'playback_domain_refused')
    assert.equal(refusal(allow, null, { origin: 'null' }), 'playback_domain_refused')
    const apps = rule({ domain_restrictions: { type: 'allow', domains: ['example.com'], allow_no_referrer: true } })
    assert.equal(refusal(apps, null, {}), 'allowed')
    const deny = rule({ domain_restrictions: { type: 'deny', domains: ['pirate.test'] } })
    assert.equal(refusal(deny, null, { referer: 'https://pirate.test/x' }), 'playback_domain_refused')
    assert.equal(refusal(deny, null, { referer: 'https://fine.test/x' }), 'allowed')
    assert.equal(refusal(deny, null, {}), 'playback_domain_refused')
  })

  it('countries: through the GeoIP lookup; with no database a country rule refuses', () => {
    const gb = rule({ geographic_restrictions: { type: 'allow', countries: ['GB'] } })
    assert.equal(refusal(gb, null, { address: '81.2.69.160' }), 'allowed')
    assert.equal(refusal(gb, null, { address: '8.8.8.8' }), 'playback_country_refused')
    const notGb = rule({ geographic_restrictions: { type: 'deny', countries: ['GB'] } })
    assert.equal(refusal(notGb, null, { address: '81.2.69.160' }), 'playback_country_refused')
    assert.equal(refusal(notGb, null, { address: '8.8.8.8' }), 'allowed')
    assert.throws(() => { enforceRules(compileRules(null, gb), { ...viewer, address: '81.2.69.160' }, { ...lookups, country: undefined }) }, { code: 'playback_country_refused' })
  })
})
