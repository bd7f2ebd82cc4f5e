import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../support/media-fixtures.ts'
import { launchBrowser, NO_CHROMIUM, type Browser } from './support/browser.ts'
import { startConsoleServer, type ConsoleServer, type Credentials } from './support/console-server.ts'

// The console in a real browser: Debian's chromium driven by playwright-core, against the api listener
// over HTTPS. Screenshots of each view at 1440 and 375 px go to SCREENSHOTS_DIR/console (by default a
// folder under the system's temporary directory; the test prints where; docs/console.md shows a set).

const SCREENSHOTS = join(process.env.SCREENSHOTS_DIR ?? join(tmpdir(), 'reelhouse-screenshots'), 'console')
const WAIT = { timeout: 30_000 }
const DAY_MS = 86_400_000
const WIDTHS = [{ width: 1440, height: 900 }, { width: 375, height: 812 }] as const
const UA = {
  mobile: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  desktop: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
}

/** The sign-in link `reelhouse console` prints. */
const link = (server: ConsoleServer, caller: Credentials): string =>
  `${server.baseUrl}/console#${new URLSearchParams({ api_key: caller.apiKey, secret: caller.secret }).toString()}`

/** Screenshots of the view at both widths; at 375 px nothing may scroll sideways. */
async function shoot (page: Page, name: string): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await page.evaluate(async () => await new Promise((resolve) => requestAnimationFrame(resolve)))
    if (size.width === 375) {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth)
      assert.ok(wide <= 375, `${name} scrolls sideways at 375 px (${wide} px wide)`)
    }
    // The whole page at 1440 px; what a phone's screen shows at 375 px, which keeps the files small.
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}.png`), fullPage: size.width === 1440 })
  }
  await page.setViewportSize(WIDTHS[0])
}

/** Every form control has a label, and every button and link a name, that a screen reader announces. */
async function unlabelled (page: Page): Promise<string[]> {
  const controls = await page.$$eval('input, select, textarea', (elements) => elements
    .filter((e) => ((e as HTMLInputElement).labels?.length ?? 0) === 0 && e.getAttribute('aria-label') === null)
    .map((e) => e.outerHTML))
  const unnamed = await page.$$eval('button, a[href], summary', (elements) => elements
    .filter((e) => e.getAttribute('aria-hidden') !== 'true' && (e.textContent ?? '').trim() === '' && e.getAttribute('aria-label') === null)
    .map((e) => e.outerHTML))
  return [...controls, ...unnamed]
}

describe('the console in a browser', { skip: NO_CHROMIUM, timeout: 300_000 }, () => {
  let server: ConsoleServer
  let browser: Browser
  let page: Page
  const assets: Record<string, string> = {}
  /** The asset the upload test processed: the captions test plays it again. */
  let uploaded: string | undefined

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startConsoleServer()
    const label = async (name: string): Promise<string> => (await server.signed('POST', '/v2/labels', { body: { name } })).json().id as string
    const nature = await label('Nature')
    const city = await label('City')
    for (let i = 1; i <= 30; i++) {
      const name = i === 1 ? 'Harbour at dawn' : i === 2 ? 'Night market' : i === 3 ? 'Forest rain' : `Clip ${String(i).padStart(2, '0')}`
      const created = await server.signed('POST', '/v2/assets', { body: { asset_type: 'remote_asset', name, description: `Seeded asset ${i}`, stream_urls: { source_file: `https://media.example/${i}.mp4` } } })
      assert.equal(created.statusCode, 200, created.body)
      assets[name] = created.json().embed_code as string
      if (i <= 3) await server.signed('PUT', `/v2/assets/${assets[name]}/labels/${i === 2 ? city : nature}`)
    }
    // Nine plays in the last days: 5, 3 and 1 on three assets, from two countries and two kinds of device.
    const now = Date.now()
    const lines: string[] = []
    const plays: Array<[string, number, string, keyof typeof UA]> = [['Harbour at dawn', 5, 'GB', 'desktop'], ['Night market', 3, 'US', 'mobile'], ['Forest rain', 1, 'GB', 'mobile']]
    let session = 0
    for (const [name, n, country, device] of plays) {
      for (let k = 0; k < n; k++) {
        const time = new Date(now - ((k % 4) + 1) * DAY_MS).toISOString()
        const base = { session_id: `s-${++session}`, asset_id: assets[name], country, device: { id: `viewer-${session}`, user_agent: UA[device] } }
        lines.push(JSON.stringify({ ...base, name: 'display', time }), JSON.stringify({ ...base, name: 'play_requested', time }),
          JSON.stringify({ ...base, name: 'video_start', time }), JSON.stringify({ ...base, name: 'time_watched', time, value: 20_000 + 40_000 * (k % 3) }))
      }
    }
    const imported = await server.signed('POST', '/v2/analytics/events/import', { body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } })
    assert.equal(imported.statusCode, 200, imported.body)
    browser = await launchBrowser()
    page = await browser.tab()
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  it('signs in through the link, forgets the fragment and shows the seeded assets a page at a time', async (t) => {
    t.diagnostic(`screenshots in ${SCREENSHOTS}`)
    assert.ok(server.printed.some((line) => /^console: built in \d+ ms \(\d+ kB script\), served at \/console$/.test(line)), server.printed.join('\n'))
    await page.goto(link(server, server.admin))
    await page.locator('.asset-card').first().waitFor(WAIT)
    assert.equal(new URL(page.url()).hash, '', 'the key and secret leave the address bar')
    assert.deepEqual(JSON.parse(await page.evaluate(() => sessionStorage.getItem('reelhouse.console.credentials') ?? '{}')), { apiKey: server.admin.apiKey, secret: server.admin.secret })
    assert.match(await page.locator('#whoami').textContent() ?? '', /administrator/)
    assert.equal(await page.locator('.asset-card').count(), 24)
    assert.match(await page.locator('.summary').textContent() ?? '', /24 assets shown, more to load/)
    assert.equal(await page.locator('.asset-card h2').first().textContent(), 'Clip 30', 'newest first')
    await page.getByRole('button', { name: 'Load more' }).click()
    await page.locator('.asset-card').nth(29).waitFor(WAIT)
    assert.equal(await page.locator('.asset-card').count(), 30)
    assert.ok(await page.getByRole('button', { name: 'Load more' }).isHidden(), 'the last page has no next_page')
    assert.match(await page.locator('.asset-card', { hasText: 'Night market' }).textContent() ?? '', /live.*\/City/)
    assert.deepEqual(await unlabelled(page), [])
    await shoot(page, 'library')
    assert.deepEqual(browser.seen.violations, [])
    assert.deepEqual(browser.seen.errors, [])
  })

  it('filters by words of the name and by label', async () => {
    const { indexNow } = await import('../indexer/support/index-now.ts')
    await indexNow(server.ctx)
    await page.fill('input[name=q]', 'market')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.querySelectorAll('.asset-card').length === 1, undefined, WAIT)
    assert.equal(await page.locator('.asset-card h2').textContent(), 'Night market')
    await page.fill('input[name=q]', '')
    await page.selectOption('select[name=label]', '/Nature')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForFunction(() => document.querySelectorAll('.asset-card').length === 2, undefined, WAIT)
    assert.deepEqual((await page.locator('.asset-card h2').allTextContents()).sort(), ['Forest rain', 'Harbour at dawn'])
  })

  it('edits an asset\'s name, metadata and labels on its page', async () => {
    await page.getByRole('link', { name: 'Harbour at dawn' }).click()
    await page.locator('input[name=name]').waitFor(WAIT)
    assert.match(await page.locator('.player').textContent() ?? '', /Nothing to play yet/)
    await page.fill('input[name=name]', 'Harbour at dawn, edited')
    await page.getByRole('button', { name: 'Save details' }).click()
    await page.getByText('Saved.').waitFor(WAIT)
    assert.equal(await page.locator('#asset-title').textContent(), 'Harbour at dawn, edited')
    await page.getByRole('button', { name: 'Add field' }).click()
    await page.locator('.meta-name').last().fill('director')
    await page.locator('.meta-value').last().fill('Agnès Varda')
    await page.getByRole('button', { name: 'Save metadata' }).click()
    await page.getByText('Metadata saved.').waitFor(WAIT)
    await page.fill('input[name=label]', '/Nature/Coast')
    await page.getByRole('button', { name: 'Add label' }).click()
    await page.getByText('Added /Nature/Coast.').waitFor(WAIT)

    const stored = (await server.signed('GET', `/v2/assets/${assets['Harbour at dawn']}`, { params: { include: 'metadata,labels' } })).json()
    assert.equal(stored.name, 'Harbour at dawn, edited')
    assert.deepEqual(stored.metadata, { director: 'Agnès Varda' })
    assert.deepEqual(stored.labels.map((l: { full_name: string }) => l.full_name).sort(), ['/Nature', '/Nature/Coast'])
    assert.deepEqual(await unlabelled(page), [])
    await shoot(page, 'asset')
    assert.deepEqual(browser.seen.violations, [])
  })

  it('charts plays over time whose plotted total is the report\'s number, with bars and a signed request to copy', async () => {
    await page.getByRole('link', { name: 'Analytics' }).click()
    const overTime = page.locator('#over-time[data-plotted-total]')
    await overTime.waitFor(WAIT)
    const from = await page.inputValue('input[name=from]')
    const to = await page.inputValue('input[name=to]')
    const end = new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)
    const report = await server.signed('GET', '/v2/analytics/reports', { params: { start_date: from, end_date: end, metrics: 'plays_requested,time_watched', time_segment: 'total' } })
    assert.equal(report.statusCode, 200, report.body)
    const total = report.json().results[0].data[0].metrics
    assert.equal(total.plays_requested, 9)
    assert.equal(Number(await overTime.getAttribute('data-plotted-total')), total.plays_requested)
    assert.equal(Number(await page.locator('#totals [data-metric=plays_requested]').getAttribute('data-value')), total.plays_requested)
    assert.equal(Number(await page.locator('#totals [data-metric=time_watched]').getAttribute('data-value')), total.time_watched)
    assert.equal(await page.locator('#over-time canvas').count(), 1)

    await page.locator('#top-assets[data-plotted-total]').waitFor(WAIT)
    assert.equal(Number(await page.locator('#top-assets').getAttribute('data-plotted-total')), 9)
    await page.locator('#top-assets summary', { hasText: 'Show data' }).click()
    assert.deepEqual(await page.locator('#top-assets details.data tbody th').allTextContents(), ['Harbour at dawn, edited', 'Night market', 'Forest rain'])
    await page.locator('#countries[data-plotted-total]').waitFor(WAIT)
    assert.equal(Number(await page.locator('#countries').getAttribute('data-plotted-total')), 9)
    await page.locator('#devices[data-plotted-total]').waitFor(WAIT)
    assert.equal(Number(await page.locator('#devices').getAttribute('data-plotted-total')), 9)

    await page.locator('#over-time summary', { hasText: 'Show request' }).click()
    const code = page.locator('#over-time pre code')
    await page.waitForFunction(() => (document.querySelector('#over-time pre code')?.textContent ?? '') !== '', undefined, WAIT)
    const curl = await code.textContent() ?? ''
    const url = new URL(/^curl -sS '(.+)'$/.exec(curl)?.[1] ?? 'http://invalid/')
    assert.equal(url.origin, server.baseUrl)
    assert.equal(url.pathname, '/v2/analytics/reports')
    assert.equal(url.searchParams.get('time_segment'), 'day')
    assert.ok(!curl.includes(server.admin.secret), 'the secret is never in the command')
    const replayed = await server.app.inject({ method: 'GET', url: url.pathname + url.search })
    assert.equal(replayed.statusCode, 200, replayed.body)
    const perDay = replayed.json().results as Array<{ data: Array<{ metrics: { plays_requested: number } }> }>
    assert.equal(perDay.reduce((sum, segment) => sum + (segment.data[0]?.metrics.plays_requested ?? 0), 0), 9)

    await page.selectOption('select[name=step]', 'hour')
    await page.getByRole('button', { name: 'Show', exact: true }).click()
    await page.waitForFunction(() => /step=hour/.test(location.hash) && document.querySelector('#over-time[data-plotted-total]') !== null, undefined, WAIT)
      .catch(async (error: unknown) => { throw new Error(`${String(error)}; the page says: ${await page.locator('#error').textContent()}`) })
    assert.equal(Number(await page.locator('#over-time').getAttribute('data-plotted-total')), 9)
    assert.deepEqual(await unlabelled(page), [])
    await page.selectOption('select[name=step]', 'day')
    await page.getByRole('button', { name: 'Show', exact: true }).click()
    await page.locator('#devices[data-plotted-total]').waitFor(WAIT)
    await shoot(page, 'analytics')
    assert.deepEqual(browser.seen.violations, [])
    assert.deepEqual(browser.seen.errors, [])
  })

  it('uploads a dropped MP4 with a progress bar, follows processing until live, and plays it', { skip: mediaSkip }, async () => {
    const scratch = await makeScratchDir('reelhouse-console-upload-')
    try {
      const source = await makeVideo(join(scratch, 'Seaside walk.mp4'), { width: 640, height: 360, seconds: 8 })
      const bytes = readFileSync(source)
      await page.goto(`${server.baseUrl}/console#/library`)
      await page.locator('#drop-zone').waitFor(WAIT)
      // Every text the upload's status line shows, in order, to check what the user saw along the way.
      await page.evaluate(() => {
        const seen: string[] = []
        ;(window as unknown as { uploadStates: string[] }).uploadStates = seen
        const line = document.getElementById('upload-state') as HTMLElement
        new MutationObserver(() => { if (seen.at(-1) !== line.textContent) seen.push(line.textContent ?? '') }).observe(line, { childList: true, subtree: true, characterData: true })
      })
      const dropped = await page.evaluateHandle(({ base64, name }) => {
        const transfer = new DataTransfer()
        transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: 'video/mp4' }))
        return transfer
      }, { base64: bytes.toString('base64'), name: 'Seaside walk.mp4' })
      await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: dropped })
      await page.locator('#upload-state', { hasText: /is live\./ }).waitFor({ timeout: 240_000 })
      const states = await page.evaluate(() => (window as unknown as { uploadStates: string[] }).uploadStates)
      assert.ok(states.some((state) => /^Uploading Seaside walk\.mp4: \d+ %$/.test(state) && !state.endsWith(': 100 %')), `a part-way upload shows: ${states.join(' | ')}`)
      assert.ok(states.includes('Uploading Seaside walk.mp4: 100 %'), states.join(' | '))
      // A standard clip can be live before the page asks again, so any state of the job's way counts.
      assert.ok(states.some((state) => /^Seaside walk: (Waiting in the queue: position \d+|Waiting for a worker to start processing|Processing \d+ %.*|Playable now; the other renditions are encoding \(\d+ %\))\.$/.test(state)), states.join(' | '))
      assert.equal(await page.locator('#upload-progress').evaluate((bar) => (bar as HTMLProgressElement).value), 100, 'the bar is full once it says live')
      assert.equal(await page.locator('#upload-progress').getAttribute('max'), '100')

      assert.equal(await page.locator('.summary').textContent(), `${await page.locator('.asset-card').count()} assets shown, more to load.`, 'the uploaded card is counted')
      await page.locator('#upload-state a').click()
      const video = page.locator('video#player')
      await video.waitFor(WAIT)
      const id = new URL(page.url()).hash.split('/')[2] as string
      uploaded = id
      const asset = (await server.signed('GET', `/v2/assets/${id}`)).json()
      assert.equal(asset.status, 'live')
      assert.equal(asset.file_size, bytes.length)
      assert.ok(asset.stream_urls.iphone.startsWith(`${server.baseUrl}/`), 'media from the api listener itself')
      await page.evaluate(async () => {
        const element = document.querySelector('video#player') as HTMLVideoElement
        element.muted = true
        await element.play()
      })
      await page.waitForFunction(() => (document.querySelector('video#player') as HTMLVideoElement).currentTime > 1, undefined, { timeout: 60_000 })
      assert.ok(await page.evaluate(() => (document.querySelector('video#player') as HTMLVideoElement).videoWidth) > 0)
      await page.evaluate(() => { (document.querySelector('video#player') as HTMLVideoElement).pause() })
      // Its renditions as the API lists them, each with its state.
      await page.locator('.renditions-table tbody tr').first().waitFor(WAIT)
      const streams = (await server.signed('GET', `/v2/assets/${id}/streams`)).json().items as Array<{ name: string, state: string }>
      assert.deepEqual(await page.locator('.renditions-table tbody tr').evaluateAll((rows) => rows.map((row) => [row.querySelector('th')?.textContent, row.getAttribute('data-state')])),
        streams.map((stream) => [stream.name, stream.state]))
      await shoot(page, 'asset-playing')

      await page.goto(`${server.baseUrl}/console#/library`)
      const preview = page.locator('.asset-card', { hasText: 'Seaside walk' }).locator('img.preview')
      await preview.waitFor(WAIT)
      await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img.preview')].every((img) => img.complete && img.naturalWidth > 0), undefined, WAIT)
      await shoot(page, 'library-upload')
      assert.deepEqual(browser.seen.violations, [])
      assert.deepEqual(browser.seen.errors, [])
    } finally {
      await removeScratchDir(scratch)
    }
  })

  it('finds spoken words, opens the player at that moment and shows the captions from its menu', { skip: mediaSkip }, async (t) => {
    if (uploaded === undefined) return t.skip('needs the asset the upload test processed')
    const track = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nGood morning.\n\n00:00:03.000 --> 00:00:05.500\nThe quarterly coffee report.\n'
    const put = await server.signed('PUT', `/v2/assets/${uploaded}/captions/en`, { body: track, headers: { 'content-type': 'text/vtt' } })
    assert.equal(put.statusCode, 200, put.body)
    // Cues reach the index through the outbox: a moment later.
    for (let i = 0; ; i++) {
      const found = (await server.signed('GET', '/v2/search/transcripts', { params: { q: 'coffee' } })).json()
      if (found.items?.length > 0) break
      assert.ok(i < 200, 'the cue is indexed')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await page.goto(`${server.baseUrl}/console#/library`)
    await page.getByLabel('Search what is said').fill('coffee')
    await page.getByRole('button', { name: 'Find' }).click()
    const hit = page.locator('.transcript-hits a').first()
    await hit.waitFor(WAIT)
    assert.equal(await hit.textContent(), '0:03 The quarterly coffee report.')
    assert.equal(await hit.locator('mark').textContent(), 'coffee')
    await shoot(page, 'spoken-search')
    await hit.click()
    await page.locator('video#player').waitFor(WAIT)
    assert.match(new URL(page.url()).hash, new RegExp(`^#/assets/${uploaded}\\?t=3\\.000$`))
    const menu = page.getByLabel('Captions')
    await page.waitForFunction(() => !(document.querySelector('select[name=captions]') as HTMLSelectElement).hidden, undefined, WAIT)
    assert.deepEqual(await menu.locator('option').allTextContents(), ['Captions off', 'English'])
    await menu.selectOption({ label: 'English' })
    // The player starts where the words are said, and the cue shows there.
    await page.waitForFunction(() => {
      const video = document.querySelector('video#player') as HTMLVideoElement
      const showing = [...video.textTracks].find((track) => track.mode === 'showing')
      return Math.abs(video.currentTime - 3) < 0.5 && [...(showing?.activeCues ?? [])].some((cue) => (cue as VTTCue).text === 'The quarterly coffee report.')
    }, undefined, { timeout: 60_000 })
    await shoot(page, 'asset-captions')
    await menu.selectOption({ label: 'Captions off' })
    assert.ok(await page.evaluate(() => [...(document.querySelector('video#player') as HTMLVideoElement).textTracks].every((track) => track.mode !== 'showing')))
    assert.deepEqual(browser.seen.violations, [])
    assert.deepEqual(browser.seen.errors, [])
  })

  it('shows a read_only user no upload and no edit control', async () => {
    const reader = await server.user('read_only')
    const tab = await browser.tab()
    await tab.goto(link(server, reader))
    await tab.locator('.asset-card').first().waitFor(WAIT)
    assert.equal(await tab.locator('#drop-zone').count(), 0)
    await tab.goto(`${server.baseUrl}/console#/assets/${assets['Night market']}`)
    await tab.locator('#details-title').waitFor(WAIT)
    await tab.locator('#labels-title').waitFor(WAIT)
    assert.equal(await tab.locator('main input, main textarea, main select').count(), 0)
    // The retention panel's "Copy" of its signed request is the one button: it changes nothing.
    assert.equal(await tab.locator('main button:not(details.request button)').count(), 0)
    assert.match(await tab.locator('main').textContent() ?? '', /City/)
    await shoot(tab, 'asset-read-only')
    assert.deepEqual(await tab.locator('#nav a').allTextContents(), ['Library', 'Analytics'])
    // An error answer is shown as the API's own message.
    const missing = 'n'.repeat(32)
    const answer = await server.signed('GET', `/v2/assets/${missing}`, { as: reader })
    assert.equal(answer.statusCode, 404)
    await tab.goto(`${server.baseUrl}/console#/assets/${missing}`)
    await tab.locator('#error:not([hidden])').waitFor(WAIT)
    assert.equal(await tab.locator('#error').textContent(), answer.json().message)
    await tab.close()
  })

  it('shows an upload_only user the library with its upload panel and no analytics', async () => {
    const uploader = await server.user('upload_only')
    const tab = await browser.tab()
    await tab.goto(link(server, uploader))
    await tab.locator('#drop-zone').waitFor(WAIT)
    assert.deepEqual(await tab.locator('#nav a').allTextContents(), ['Library'])
    await tab.goto(`${server.baseUrl}/console#/analytics`)
    await tab.locator('#drop-zone').waitFor(WAIT)
    assert.equal(await tab.locator('#over-time').count(), 0)
    await tab.close()
  })

  it('shows an analytics_only user the analytics alone', async () => {
    const analyst = await server.user('analytics_only')
    const tab = await browser.tab()
    await tab.goto(link(server, analyst))
    await tab.locator('#over-time[data-plotted-total]').waitFor(WAIT)
    await tab.goto(`${server.baseUrl}/console#/library`)
    await tab.locator('#over-time[data-plotted-total]').waitFor(WAIT)
    assert.deepEqual(await tab.locator('#nav a').allTextContents(), ['Analytics'])
    assert.equal(await tab.locator('.asset-card').count(), 0)
    // Without the right to read assets, the top assets are named by their embed codes.
    await tab.locator('#top-assets summary', { hasText: 'Show data' }).click()
    assert.equal(await tab.locator('#top-assets details.data tbody th').first().textContent(), assets['Harbour at dawn'])
    await tab.close()
  })

  it('shows the API\'s message for a wrong secret and keeps nothing', async () => {
    const tab = await browser.tab()
    await tab.goto(link(server, { apiKey: server.admin.apiKey, secret: 'x'.repeat(40) }))
    await tab.locator('#error:not([hidden])').waitFor(WAIT)
    assert.equal(await tab.locator('#error').textContent(), 'Invalid signature.')
    assert.ok(await tab.getByRole('heading', { name: 'Sign in' }).isVisible())
    assert.equal(await tab.evaluate(() => sessionStorage.length), 0)
    assert.equal(new URL(tab.url()).hash, '')
    assert.deepEqual(await unlabelled(tab), [])
    await shoot(tab, 'sign-in-error')

    await tab.fill('input[name=api_key]', server.admin.apiKey)
    await tab.fill('input[name=secret]', server.admin.secret)
    await tab.keyboard.press('Enter')
    await tab.locator('.asset-card').first().waitFor(WAIT)
    assert.ok(await tab.locator('#error').isHidden())
    await tab.close()
    assert.deepEqual(browser.seen.violations, [])
  })
})
