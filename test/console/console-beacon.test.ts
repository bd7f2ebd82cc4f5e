import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { CDPSession, Page } from 'playwright-core'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../support/media-fixtures.ts'
import { launchBrowser, NO_CHROMIUM, type Browser } from './support/browser.ts'
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts'

// The console's player reports what its viewer saw (docs/analytics.md, "The beacon"): real chromium
// plays an HLS asset made by the media worker, once with Chromium's network throttling below the
// stream's mean bit rate (it must stall) and once without; each view's events, sent by the beacon when
// the page leaves the asset, are read back through the report API over that view's own time range.
// No timing is asserted: every wait is a poll with a generous bound.

const WAIT = { timeout: 60_000 }
const POLL_MS = 200

interface ViewReport { video_starts: number, startup_time_ms: number | null, rebuffer_ratio: number, time_watched: number }

/** A UTC time the report API takes, to the second (`floor` rounds down, else up). */
const reportTime = (ms: number, floor: boolean): string =>
  new Date((floor ? Math.floor(ms / 1000) : Math.ceil(ms / 1000)) * 1000).toISOString().replace('.000Z', 'Z')

async function until<T> (what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

/** Reads the asset until its ladder is made (the worker polls every 50 ms here). */
async function live (server: ConsoleServer, id: string): Promise<Record<string, any>> {
  return await until('the asset to be live', async () => {
    const asset = (await server.signed('GET', `/v2/assets/${id}`)).json()
    if (asset.status === 'error') throw new Error(`processing failed: ${String(asset.processing_error)}`)
    return asset.status === 'live' && (asset.processing_progress ?? 100) === 100 ? asset : undefined
  }, 180_000)
}

/**
 * One view on the asset's page: plays from the start and measures, in the page, the time from calling
 * `play()` to the first `playing`; with `stall`, keeps playing until the video stalled and resumed.
 * Leaving the page (to the library) detaches the player and its beacon, which sends what waits.
 * Answers the page's own startup measure and the view's time range.
 */
let lastViewEnd = 0
async function view (page: Page, server: ConsoleServer, id: string, stall?: { slow: () => Promise<void>, restore: () => Promise<void> }): Promise<{ startupMs: number, start: number, end: number }> {
  // Whole seconds apart from any earlier view, since the report's range is given to the second: this one
  // starts no earlier than the whole second the last one's range ends at.
  const apart = Math.ceil(lastViewEnd / 1000) * 1000 - Date.now()
  if (apart > 0) await new Promise((resolve) => setTimeout(resolve, apart))
  const start = Date.now()
  await page.goto(`${server.baseUrl}/console#/assets/${id}`)
  await page.locator('video#player').waitFor(WAIT)
  await page.evaluate(() => {
    const video = document.querySelector('video#player') as HTMLVideoElement
    const seen = { startupMs: -1, stalled: false, resumed: false }
    ;(window as unknown as { seen: typeof seen }).seen = seen
    video.muted = true
    const requested = performance.now()
    video.addEventListener('playing', () => {
      if (seen.startupMs < 0) seen.startupMs = performance.now() - requested
      else if (seen.stalled) seen.resumed = true
    })
    video.addEventListener('waiting', () => { if (seen.startupMs >= 0 && !video.seeking) seen.stalled = true })
    void video.play()
  })
  const seen = async (what: 'started' | 'stalled' | 'resumed' | 'played'): Promise<void> => {
    await page.waitForFunction((state) => {
      const seen = (window as unknown as { seen: { startupMs: number, stalled: boolean, resumed: boolean } }).seen
      if (state === 'started') return seen.startupMs >= 0
      if (state === 'stalled') return seen.stalled
      if (state === 'resumed') return seen.resumed
      return seen.startupMs >= 0 && (document.querySelector('video#player') as HTMLVideoElement).currentTime > 3
    }, what, { timeout: 90_000 }).catch(async (error: unknown) => {
      const state = await page.evaluate(() => {
        const video = document.querySelector('video#player') as HTMLVideoElement
        const buffered = [...Array(video.buffered.length).keys()].map((i) => `${video.buffered.start(i).toFixed(1)}–${video.buffered.end(i).toFixed(1)}`)
        return { seen: (window as unknown as { seen: unknown }).seen, currentTime: video.currentTime, readyState: video.readyState, paused: video.paused, ended: video.ended, buffered, error: document.getElementById('error')?.textContent }
      })
      throw new Error(`waiting until ${what}: ${String(error)}; the player: ${JSON.stringify(state)}`)
    })
  }
  if (stall === undefined) await seen('played')
  else {
    // Started: now loading nearly stops, so the buffer runs out; once it has, loading is restored.
    await seen('started')
    await stall.slow()
    await seen('stalled')
    await stall.restore()
    await seen('resumed')
  }
  const startupMs = await page.evaluate(() => {
    (document.querySelector('video#player') as HTMLVideoElement).pause()
    return (window as unknown as { seen: { startupMs: number } }).seen.startupMs
  })
  await page.goto(`${server.baseUrl}/console#/library`)
  await page.locator('.asset-card').first().waitFor(WAIT)
  const end = Date.now() + 1
  lastViewEnd = end
  return { startupMs, start, end }
}

/** The console player's metrics over a time range, once the beacon's batch with the time watched is in. */
async function reportOf (server: ConsoleServer, range: { start: number, end: number }): Promise<ViewReport> {
  return await until('the view\'s events in the report', async () => {
    const answer = await server.signed('GET', '/v2/analytics/reports', {
      params: {
        start_date: reportTime(range.start, true),
        end_date: reportTime(range.end, false),
        metrics: 'video_starts,startup_time_ms,rebuffer_ratio,time_watched',
        filters: 'player_id==\'reelhouse-console\''
      }
    })
    assert.equal(answer.statusCode, 200, answer.body)
    const row = answer.json().results[0]?.data[0]?.metrics as ViewReport | undefined
    return row !== undefined && row.video_starts === 1 && row.time_watched > 0 ? row : undefined
  })
}

describe('the console player\'s beacon in a browser', { skip: NO_CHROMIUM === false ? mediaSkip : NO_CHROMIUM, timeout: 420_000 }, () => {
  let server: ConsoleServer
  let browser: Browser
  let page: Page
  let cdp: CDPSession
  let id: string
  let meanBytesPerSecond: number

  before(async () => {
    server = await startConsoleServer()
    const scratch = await makeScratchDir('reelhouse-console-beacon-')
    try {
      // One small rendition of 36 s: more than the player buffers before the test slows loading down.
      const bytes = readFileSync(await makeVideo(join(scratch, 'Throttled.mp4'), { width: 320, height: 180, seconds: 36 }))
      const created = await server.signed('POST', '/v2/assets', { body: { asset_type: 'video', name: 'Throttled', file_name: 'Throttled.mp4', file_size: bytes.length } })
      assert.equal(created.statusCode, 200, created.body)
      id = created.json().embed_code as string
      const [url] = (await server.signed('GET', `/v2/assets/${id}/uploading_urls`)).json() as string[]
      const chunk = new URL(url as string)
      const put = await server.app.inject({ method: 'PUT', url: chunk.pathname + chunk.search, payload: bytes, headers: { 'content-type': 'application/octet-stream' } })
      assert.equal(put.statusCode, 200, put.body)
      assert.equal((await server.signed('PUT', `/v2/assets/${id}/upload_status`, { body: { status: 'uploaded' } })).statusCode, 200)
    } finally {
      await removeScratchDir(scratch)
    }
    const asset = await live(server, id)
    const master = new URL(asset.stream_urls.iphone as string)
    const playlist = (await server.app.inject({ method: 'GET', url: master.pathname + master.search })).body
    // The video variant's mean (an audio-only variant, if any, has no RESOLUTION).
    const means = [...playlist.matchAll(/AVERAGE-BANDWIDTH=(\d+),CODECS="[^"]*",RESOLUTION=/g)].map((match) => Number(match[1]))
    assert.equal(means.length, 1, playlist)
    meanBytesPerSecond = (means[0] as number) / 8
    browser = await launchBrowser()
    page = await browser.tab()
    await page.goto(`${server.baseUrl}/console#${new URLSearchParams({ api_key: server.admin.apiKey, secret: server.admin.secret }).toString()}`)
    await page.locator('.asset-card').first().waitFor(WAIT)
    cdp = await browser.context.newCDPSession(page)
    await cdp.send('Network.enable')
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  it('reports the stalls of a throttled view, its startup as the page measured it, and fewer stalls unthrottled', async () => {
    // Twice the stream's mean bit rate until the video starts (a start of a second or two), then 1 kB/s
    // until it stalls, then no throttling.
    const throttle = async (bytesPerSecond: number): Promise<void> => {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: bytesPerSecond < 0 ? 0 : 20, downloadThroughput: bytesPerSecond, uploadThroughput: -1 })
    }
    await throttle(Math.round(meanBytesPerSecond * 2))
    const throttled = await view(page, server, id, { slow: async () => { await throttle(1000) }, restore: async () => { await throttle(-1) } })
    const slow = await reportOf(server, throttled)
    assert.ok(slow.rebuffer_ratio > 0, `a throttled view stalls: ${JSON.stringify(slow)}`)
    assert.notEqual(slow.startup_time_ms, null)
    assert.ok(Math.abs((slow.startup_time_ms as number) - throttled.startupMs) <= 100,
      `reported startup ${String(slow.startup_time_ms)} ms, measured by the page ${throttled.startupMs.toFixed(0)} ms`)

    const unthrottled = await view(page, server, id)
    const fast = await reportOf(server, unthrottled)
    assert.ok(fast.rebuffer_ratio < slow.rebuffer_ratio, `unthrottled ${fast.rebuffer_ratio} < throttled ${slow.rebuffer_ratio}`)
    assert.ok(Math.abs((fast.startup_time_ms as number) - unthrottled.startupMs) <= 100,
      `reported startup ${String(fast.startup_time_ms)} ms, measured by the page ${unthrottled.startupMs.toFixed(0)} ms`)
    assert.deepEqual(browser.seen.violations, [], 'the beacon stays within the page\'s policy')
    assert.deepEqual(browser.seen.errors, [])
  })
})
