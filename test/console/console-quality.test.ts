import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { launchBrowser, NO_CHROMIUM, type Browser } from './support/browser.ts'
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts'

// The console's viewer-experience panels in a real chromium, drawn from events that went through the
// collection endpoint (as a player's beacon sends them): startup time and rebuffering over time, the
// playback failures with their messages, and an asset's retention curve on its page. Each panel's
// "Show request" gives a signed request that answers the same numbers when replayed.

const WAIT = { timeout: 60_000 }
const DAY_MS = 86_400_000

/** Three views of one asset yesterday: two start (400 and 800 ms; one stalls for a second), one fails. */
function views (accountCode: string, assetId: string): object[] {
  const at = (seconds: number): string => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS + 12 * 3_600_000 + seconds * 1000).toISOString()
  const view = (session: string, events: object[]): object => ({ account_code: accountCode, session_id: session, asset_id: assetId, device: { id: `viewer-${session}` }, events })
  return [
    view('q1', [{ name: 'play_requested', time: at(0) }, { name: 'video_start', time: at(1), startup_ms: 400 },
      { name: 'rebuffer_start', time: at(5) }, { name: 'rebuffer_end', time: at(6), duration_ms: 1000 },
      { name: 'playhead_update', time: at(30), position_ms: 30_000, duration_ms: 60_000 }, { name: 'time_watched', time: at(31), value: 20_000 }]),
    view('q2', [{ name: 'play_requested', time: at(100) }, { name: 'video_start', time: at(101), startup_ms: 800 },
      { name: 'playhead_update', time: at(160), position_ms: 60_000, duration_ms: 60_000 }, { name: 'time_watched', time: at(161), value: 30_000 }]),
    view('q3', [{ name: 'play_requested', time: at(200) },
      { name: 'error', time: at(203), fatal: true, code: 'manifestLoadError', message: 'HTTP 404 loading the master playlist' }])
  ]
}

/** The signed command a panel's "Show request" gives, as a URL (the secret never in it). */
async function shownRequest (page: Page, server: ConsoleServer, panel: string): Promise<URL> {
  await page.locator(`#${panel} summary`, { hasText: 'Show request' }).click()
  await page.waitForFunction((id) => (document.querySelector(`#${id} pre code`)?.textContent ?? '') !== '', panel, WAIT)
  const curl = await page.locator(`#${panel} pre code`).textContent() ?? ''
  assert.ok(!curl.includes(server.admin.secret), 'the secret is never in the command')
  const url = new URL(/^curl -sS '(.+)'$/.exec(curl)?.[1] ?? 'http://invalid/')
  assert.equal(url.origin, server.baseUrl)
  assert.ok(url.searchParams.get('signature') !== null && url.searchParams.get('api_key') === server.admin.apiKey, curl)
  return url
}

describe('the console\'s viewer-experience view in a browser', { skip: NO_CHROMIUM, timeout: 240_000 }, () => {
  let server: ConsoleServer
  let browser: Browser
  let page: Page
  let assetId: string

  before(async () => {
    server = await startConsoleServer()
    const created = await server.signed('POST', '/v2/assets', { body: { asset_type: 'remote_asset', name: 'Quality clip', stream_urls: { source_file: 'https://media.example/q.mp4' } } })
    assert.equal(created.statusCode, 200, created.body)
    assetId = created.json().embed_code as string
    const accountCode = (await server.signed('GET', '/v2/users/me')).json().account.code as string
    for (const body of views(accountCode, assetId)) {
      const sent = await server.app.inject({ method: 'POST', url: '/v2/analytics/events', payload: body })
      assert.equal(sent.statusCode, 204, sent.body)
    }
    // Ingested within seconds of the 204s: polled until both starts are in the report.
    const deadline = Date.now() + 30_000
    for (;;) {
      const report = await server.signed('GET', '/v2/analytics/reports', { params: { start_date: new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10), metrics: 'video_starts', time_segment: 'total' } })
      if (report.json().results[0]?.data[0]?.metrics.video_starts === 2) break
      if (Date.now() > deadline) throw new Error(`the events never reached the report: ${report.body}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    browser = await launchBrowser()
    page = await browser.tab()
    await page.goto(`${server.baseUrl}/console#${new URLSearchParams({ api_key: server.admin.apiKey, secret: server.admin.secret }).toString()}`)
    await page.locator('.asset-card').first().waitFor(WAIT)
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  it('charts startup time and rebuffering from the ingested events, lists the failure\'s message, and signs each request', async () => {
    await page.getByRole('link', { name: 'Analytics' }).click()
    await page.locator('#startup[data-plotted-total]').waitFor(WAIT)
    await page.locator('#rebuffering[data-plotted-total]').waitFor(WAIT)
    // Two startup times, 400 and 800 ms: the median is the midpoint of 400's 10 ms bucket, and only yesterday has one.
    assert.equal(Number(await page.locator('#startup').getAttribute('data-plotted-total')), 405)
    // One second stalled over 50 seconds watched: 2 %.
    assert.equal(Number(await page.locator('#rebuffering').getAttribute('data-plotted-total')), 2)
    assert.equal(await page.locator('#startup canvas').count(), 1)
    assert.equal(await page.locator('#rebuffering canvas').count(), 1)
    const failure = page.locator('#failures tbody tr[data-code=manifestLoadError]')
    await failure.waitFor(WAIT)
    assert.deepEqual((await failure.locator('th, td').allTextContents()).slice(0, 4), ['HTTP 404 loading the master playlist', 'manifestLoadError', '1', '1'])

    const startup = await shownRequest(page, server, 'startup')
    assert.equal(startup.pathname, '/v2/analytics/reports')
    const replayed = await server.app.inject({ method: 'GET', url: startup.pathname + startup.search })
    assert.equal(replayed.statusCode, 200, replayed.body)
    const days = replayed.json().results as Array<{ data: Array<{ metrics: { startup_time_ms: number | null, startup_time_ms_p95: number | null } }> }>
    assert.deepEqual(days.map((day) => [day.data[0]?.metrics.startup_time_ms, day.data[0]?.metrics.startup_time_ms_p95]), [[405, 805]])

    const failures = await shownRequest(page, server, 'failures')
    assert.equal(failures.pathname, '/v2/analytics/failures')
    const listed = await server.app.inject({ method: 'GET', url: failures.pathname + failures.search })
    assert.equal(listed.statusCode, 200, listed.body)
    assert.deepEqual(listed.json().failures.map((f: { message: string, count: number }) => [f.message, f.count]), [['HTTP 404 loading the master playlist', 1]])
    assert.deepEqual(browser.seen.violations, [], 'the charts stay within the page\'s policy')
    assert.deepEqual(browser.seen.errors, [])
  })

  it('draws the asset\'s retention curve on its page, with its signed request', async () => {
    await page.goto(`${server.baseUrl}/console#/assets/${assetId}`)
    const retention = page.locator('#retention[data-plotted-total]')
    await retention.waitFor(WAIT)
    // Two views: both reach 50 % of the duration, one reaches the end; shares in percent, 101 points.
    assert.equal(Number(await retention.getAttribute('data-plotted-total')), 51 * 100 + 50 * 50)
    assert.equal(await page.locator('#retention canvas').count(), 1)
    const url = await shownRequest(page, server, 'retention')
    assert.equal(url.pathname, '/v2/analytics/retention')
    assert.equal(url.searchParams.get('asset_id'), assetId)
    const replayed = await server.app.inject({ method: 'GET', url: url.pathname + url.search })
    assert.equal(replayed.statusCode, 200, replayed.body)
    assert.equal(replayed.json().views, 2)
    assert.deepEqual(browser.seen.violations, [])
    assert.deepEqual(browser.seen.errors, [])
  })
})
