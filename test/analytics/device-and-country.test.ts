import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { deviceInfo } from '../../src/analytics/index.ts'
import { UA } from './support/fixture.ts'
import { openTestAnalytics, type TestAnalytics } from './support/harness.ts'
import { countryMmdb } from './support/mmdb.ts'

describe('device type, OS and browser from the user agent', () => {
  const CASES: Array<[string, string | undefined, [string, string, string]]> = [
    ['Windows Chrome', UA.windowsChrome, ['desktop', 'windows', 'chrome']],
    ['iPhone Safari', UA.iphoneSafari, ['mobile', 'ios', 'safari']],
    ['iPad Safari', UA.ipadSafari, ['tablet', 'ios', 'safari']],
    ['Android Chrome', UA.androidChrome, ['mobile', 'android', 'chrome']],
    ['macOS Safari', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15', ['desktop', 'mac', 'safari']],
    ['Ubuntu Firefox', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0', ['desktop', 'linux', 'firefox']],
    ['Edge', `${UA.windowsChrome} Edg/120.0.0.0`, ['desktop', 'windows', 'edge']],
    ['IE 10', 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)', ['desktop', 'windows', 'ie']],
    ['Roku', 'Roku/DVP-12.5 (12.5.0.4178-88)', ['settop', 'roku', 'unknown.browser']],
    ['Chromecast', 'Mozilla/5.0 (CrKey armv7l 1.5.16041) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/31.0.1650.0 Safari/537.36', ['settop', 'chromecast', 'chrome']],
    ['Samsung Tizen TV', 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/538.1 (KHTML, like Gecko) Version/6.0 TV Safari/538.1', ['settop', 'tizen', 'safari']],
    ['ChromeOS', 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', ['desktop', 'chromeos', 'chrome']],
    ['curl', 'curl/8.0', ['unknown.devicetype', 'unknown.os', 'unknown.browser']],
    ['no user agent', undefined, ['unknown.devicetype', 'unknown.os', 'unknown.browser']]
  ]
  for (const [name, ua, [deviceType, os, browser]] of CASES) {
    it(`classifies ${name} as ${deviceType} / ${os} / ${browser}`, () => {
      assert.deepEqual(deviceInfo(ua), { deviceType, os, browser })
    })
  }
})

describe('country: GeoIP first, then the event, then the batch, else unknown', () => {
  let t: TestAnalytics
  const geoDir = mkdtempSync(join(tmpdir(), 'reelhouse-geo-'))
  before(async () => {
    const file = join(geoDir, 'country.mmdb')
    writeFileSync(file, countryMmdb([{ cidr: '81.2.69.0/24', country: 'GB' }]))
    t = await openTestAnalytics('duckdb', { geoIpPath: file })
  })
  after(async () => {
    await t?.close()
    rmSync(geoDir, { recursive: true, force: true })
  })

  it('groups each batch under the country its rule gives', async () => {
    const time = '2026-11-22T09:00:00Z'
    const batch = (session: string, ip: string | undefined, country: Record<string, string>, eventCountry?: string): Promise<void> =>
      t.analytics.collect({ account_code: 'code-a', session_id: session, asset_id: 'asset-1', ...country, events: [{ name: 'display', time, ...(eventCountry === undefined ? {} : { country: eventCountry }) }] }, ip === undefined ? {} : { ip })
    await batch('geo', '81.2.69.160', { country: 'US' }, 'FR') // in the database: GB, whatever the body says
    await batch('event', '10.1.2.3', { country: 'US' }, 'fr') // not in it: the event's FR beats the batch's US
    await batch('body', '10.1.2.3', { country: 'us' }) // then the batch's
    await batch('none', undefined, {}) // nothing: unknown
    await t.analytics.flush()
    const report = await t.analytics.report('acc-a', { start_date: '2026-11-22', end_date: '2026-11-23', dimensions: 'country', metrics: 'displays', sort: '+country' })
    assert.deepEqual(report.results[0].data.map((r) => [r.group.country, r.metrics.displays]), [['FR', 1], ['GB', 1], ['US', 1], ['unknown', 1]])
  })
})
