import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { makeAudio, makeScratchDir, mediaSkip, removeScratchDir } from '../support/media-fixtures.ts'
import { launchBrowser, NO_CHROMIUM, type Browser } from './support/browser.ts'
import { createRequire } from 'node:module'
import { startConsoleServer, uploadBytes, type ConsoleServer } from './support/console-server.ts'

// What a new user meets in the console (docs/console.md): the first-run guidance of an empty account,
// the header, the table view and its sorting, an asset that failed (its reason, process again, delete),
// an audio asset's own player with its renditions and file, and charts without empty legends. In real
// chromium at 1440 and 375 px, screenshots to SCREENSHOTS_DIR/console like the other console tests.

const HLS_JS = createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js')
const SCREENSHOTS = join(process.env.SCREENSHOTS_DIR ?? join(tmpdir(), 'reelhouse-screenshots'), 'console')
const WAIT = { timeout: 30_000 }
const WIDTHS = [{ width: 1440, height: 900 }, { width: 375, height: 812 }] as const

async function shoot (page: Page, name: string): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await page.evaluate(async () => await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    if (size.width === 375) {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth)
      assert.ok(wide <= 375, `${name} scrolls sideways at 375 px (${wide} px wide)`)
    }
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}.png`), fullPage: size.width === 1440 })
  }
  await page.setViewportSize(WIDTHS[0])
}

/** Reads the asset until it failed or its whole ladder is made (the worker polls every 50 ms here). */
async function settled (server: ConsoleServer, id: string): Promise<Record<string, any>> {
  for (;;) {
    const asset = (await server.signed('GET', `/v2/assets/${id}`)).json()
    if (asset.status === 'error' || ((asset.status === 'live' || asset.status === 'paused') && (asset.processing_progress ?? 100) === 100)) return asset
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('the console\'s first hour in a browser', { skip: NO_CHROMIUM, timeout: 240_000 }, () => {
  let server: ConsoleServer
  let browser: Browser
  let page: Page
  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    server = await startConsoleServer()
    browser = await launchBrowser()
    page = await browser.tab()
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  it('greets an account without assets with the two ways to add one, and names the user once in the header', async () => {
    await page.goto(`${server.baseUrl}/console#${new URLSearchParams({ api_key: server.admin.apiKey, secret: server.admin.secret }).toString()}`)
    await page.locator('.first-run:not([hidden])').waitFor(WAIT)
    assert.match(await page.locator('.first-run').textContent() ?? '', /Drop a video or audio file.*reelhouse upload clip\.mp4/s)
    assert.equal(await page.locator('.summary').textContent(), '', 'no "No assets match." when nothing is filtered')
    const me = (await server.signed('GET', '/v2/users/me')).json()
    const header = (await page.locator('#whoami > span').textContent()) ?? ''
    assert.equal(header.split(' · ').length, 2, header)
    assert.equal(header, `${me.role as string} · ${me.account.name as string}`, 'the first administrator is named after its role: said once')
    await shoot(page, 'library-first-run')
  })

  it('lists labels by full path, counts what it shows, and sorts the table view through the API', async () => {
    const label = (await server.signed('POST', '/v2/labels/by_full_path/%2FNature%2FCoast')).json()
    const coast = (label.items ?? label).at(-1).id as string
    for (const name of ['Breakwater', 'Anchorage', 'Cliffs']) {
      const created = await server.signed('POST', '/v2/assets', { body: { asset_type: 'remote_asset', name, stream_urls: { source_file: `https://media.example/${name}.mp4` } } })
      if (name === 'Anchorage') await server.signed('PUT', `/v2/assets/${created.json().embed_code as string}/labels/${coast}`)
    }
    await page.goto(`${server.baseUrl}/console#/library`)
    await page.locator('.asset-card').nth(2).waitFor(WAIT)
    assert.ok(await page.locator('.first-run').isHidden())
    assert.equal(await page.locator('.summary').textContent(), `${await page.locator('.asset-card').count()} assets shown.`)
    assert.deepEqual(await page.locator('.asset-card', { hasText: 'Anchorage' }).locator('.labels li').allTextContents(), ['/Nature/Coast'])

    await page.getByRole('button', { name: 'Table' }).click()
    await page.locator('.asset-table tbody tr').nth(2).waitFor(WAIT)
    assert.equal(await page.getByRole('button', { name: 'Table' }).getAttribute('aria-pressed'), 'true')
    assert.deepEqual(await page.locator('.asset-table tbody th').allTextContents(), ['Cliffs', 'Anchorage', 'Breakwater'], 'newest first')
    await page.locator('.asset-table button.sort', { hasText: 'Name' }).click()
    await page.waitForFunction(() => /sort=name(\+|%20)ascending/.test(location.hash) && document.querySelectorAll('.asset-table tbody tr').length === 3, undefined, WAIT)
    assert.deepEqual(await page.locator('.asset-table tbody th').allTextContents(), ['Anchorage', 'Breakwater', 'Cliffs'])
    assert.equal(await page.locator('.asset-table th[aria-sort=ascending]').textContent(), 'Name ▲')
    await page.locator('.asset-table button.sort', { hasText: 'Name' }).click()
    await page.waitForFunction(() => /sort=name(\+|%20)descending/.test(location.hash) && document.querySelector('.asset-table tbody th')?.textContent === 'Cliffs', undefined, WAIT)
    assert.match(await page.locator('.asset-table tbody tr', { hasText: 'Anchorage' }).textContent() ?? '', /\/Nature\/Coast/)
    await shoot(page, 'library-table')
    await page.getByRole('button', { name: 'Cards' }).click()
    await page.locator('.asset-card').first().waitFor(WAIT)
  })

  it('shows why processing failed, processes it again on request, and deletes it after asking', async () => {
    const id = await uploadBytes(server, 'Not a video', 'video', 'notes.mp4', Buffer.from('These are notes, not a video.\n'.repeat(40)))
    const failed = await settled(server, id)
    assert.equal(failed.status, 'error')
    await page.goto(`${server.baseUrl}/console#/assets/${id}`)
    const reason = page.locator('.player.failed')
    await reason.waitFor(WAIT)
    assert.equal(await reason.textContent(), `Processing failed. ${failed.processing_error as string}`)
    assert.equal(await page.locator('video, audio').count(), 0)
    await shoot(page, 'asset-error')

    await page.getByRole('button', { name: 'Process again' }).click()
    // The job runs again (and fails again: the bytes did not change); the page follows it and is drawn
    // anew with the reason and an enabled button (the clicked one stays disabled until then).
    assert.equal((await settled(server, id)).status, 'error')
    await page.waitForFunction(() => document.querySelector('.player.failed') !== null && document.querySelector('.processing') === null &&
      [...document.querySelectorAll('button')].some((b) => b.textContent === 'Process again' && !b.disabled), undefined, WAIT)
    await page.getByRole('button', { name: 'Delete asset' }).click()
    assert.ok(await page.getByRole('button', { name: 'Keep it' }).isVisible())
    assert.equal((await server.signed('GET', `/v2/assets/${id}`)).statusCode, 200, 'nothing deleted before the second button')
    await page.getByRole('button', { name: 'Delete for good' }).click()
    await page.waitForFunction(() => location.hash === '#/library', undefined, WAIT)
    assert.equal((await server.signed('GET', `/v2/assets/${id}`)).statusCode, 404)
    assert.deepEqual(browser.seen.violations, [])
  })

  it('plays an audio asset in an audio player and lists its stream URL, renditions and file', { skip: mediaSkip }, async () => {
    const scratch = await makeScratchDir('reelhouse-console-audio-')
    try {
      const id = await uploadBytes(server, 'Harbour bells', 'audio', 'bells.mp3', readFileSync(await makeAudio(join(scratch, 'bells.mp3'), 2)))
      const live = await settled(server, id)
      assert.equal(live.status, 'live')
      await page.goto(`${server.baseUrl}/console#/assets/${id}`)
      await page.locator('audio#player').waitFor(WAIT)
      assert.equal(await page.locator('video').count(), 0, 'no picture box for audio')
      await page.locator('.renditions-table tbody tr').first().waitFor(WAIT)
      const streams = (await server.signed('GET', `/v2/assets/${id}/streams`)).json().items as Array<{ name: string, state: string }>
      assert.deepEqual(await page.locator('.renditions-table tbody tr').evaluateAll((rows) => rows.map((row) => [row.querySelector('th')?.textContent, row.getAttribute('data-state')])),
        streams.map((stream) => [stream.name, stream.state]))
      assert.match(await page.locator('.urls').textContent() ?? '', new RegExp(`iphone${(live.stream_urls.iphone as string).replace(/[.?*+^$()[\]{}|\\]/g, '\\$&')}`))
      await page.locator('.file-info[aria-busy=false]').waitFor(WAIT)
      assert.match(await page.locator('.file-info').textContent() ?? '', /bells\.mp3/)
      await page.evaluate(async () => {
        const element = document.querySelector('audio#player') as HTMLAudioElement
        element.muted = true
        await element.play()
      })
      await page.waitForFunction(() => (document.querySelector('audio#player') as HTMLAudioElement).currentTime > 0.5, undefined, WAIT)
      await page.evaluate(() => { (document.querySelector('audio#player') as HTMLAudioElement).pause() })
      // A public asset's embed snippet names its master; served as a page of its own (hls.js from this
      // machine in place of the CDN it names), it plays.
      const snippet = await page.locator('#embed-code').textContent() ?? ''
      assert.ok(snippet.includes(`'${live.stream_urls.iphone as string}'`), snippet)
      assert.equal(await page.locator('#embed-signed').count(), 0)
      await shoot(page, 'asset-audio')
      assert.deepEqual(browser.seen.violations, [])
      assert.deepEqual(browser.seen.errors, [])
      const embed = await browser.tab()
      await embed.route('https://cdn.jsdelivr.net/npm/hls.js@1/dist/hls.min.js', async (route) => { await route.fulfill({ contentType: 'text/javascript', body: readFileSync(HLS_JS) }) })
      await embed.route(`${server.baseUrl}/embed-test.html`, async (route) => { await route.fulfill({ contentType: 'text/html', body: snippet }) })
      await embed.goto(`${server.baseUrl}/embed-test.html`)
      await embed.evaluate(async () => {
        const element = document.getElementById('player') as HTMLVideoElement
        element.muted = true
        await element.play()
      })
      await embed.waitForFunction(() => (document.getElementById('player') as HTMLVideoElement).currentTime > 0.5, undefined, WAIT)
      await embed.close()
    } finally {
      await removeScratchDir(scratch)
    }
  })

  it('draws charts without an empty legend', async () => {
    // Long names, as people give them: the labels of neighbouring bars must not run into each other.
    const names = ['Portrait phone recording of the harbour at dawn', 'A YouTube clip of the night market', 'Breakwater in a storm, filmed from the lighthouse']
    const time = new Date(Date.now() - 86_400_000).toISOString()
    const lines: string[] = []
    for (const [i, name] of names.entries()) {
      const created = await server.signed('POST', '/v2/assets', { body: { asset_type: 'remote_asset', name, stream_urls: { source_file: `https://media.example/long-${i}.mp4` } } })
      for (let k = 0; k <= i; k++) lines.push(JSON.stringify({ session_id: `s${i}-${k}`, asset_id: created.json().embed_code, name: 'play_requested', time, country: 'GB', device: { id: `d${i}` } }))
    }
    assert.equal((await server.signed('POST', '/v2/analytics/events/import', { body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } })).statusCode, 200)
    await page.goto(`${server.baseUrl}/console#/analytics`)
    await page.locator('#top-assets[data-plotted-total]').waitFor(WAIT)
    await page.locator('#over-time[data-plotted-total]').waitFor(WAIT)
    for (const panel of ['#top-assets', '#countries', '#devices']) assert.equal(await page.locator(`${panel} .u-legend`).count(), 0, `${panel} has no legend`)
    const legend = await page.locator('#over-time .u-legend').textContent() ?? ''
    assert.match(legend, /Plays/)
    assert.doesNotMatch(legend, /--/)
    await page.setViewportSize(WIDTHS[1])
    // Narrow, the line chart is drawn again without axis titles, as wide as its panel.
    await page.waitForFunction(() => {
      const canvas = document.querySelector('#over-time canvas') as HTMLCanvasElement | null
      const box = document.querySelector('#over-time .chart-canvas') as HTMLElement | null
      return canvas !== null && box !== null && Math.abs(canvas.getBoundingClientRect().width - box.clientWidth) < 2
    }, undefined, WAIT)
    await page.evaluate(async () => await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    await page.locator('#over-time .chart-canvas').screenshot({ path: join(SCREENSHOTS, 'analytics-line-375.png') })
    await page.locator('#top-assets .chart-canvas').screenshot({ path: join(SCREENSHOTS, 'analytics-bars-375.png') })
    await page.setViewportSize(WIDTHS[0])
    await page.evaluate(async () => await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    await page.locator('#top-assets .chart-canvas').screenshot({ path: join(SCREENSHOTS, 'analytics-bars-1440.png') })
  })
})
