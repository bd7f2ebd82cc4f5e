import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { launchBrowser, NO_CHROMIUM, type Browser } from '../../console/support/browser.ts'
import { makeScratchDir, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { HLS_JS, hlsPage } from './hls-page.ts'
import { finished, pathOf, startStack, upload, type Stack } from './support.ts'

/**
 * A player that starts while the ladder is still being encoded plays from 0 to the end (docs/media.md,
 * "Growing playlists"). The worker reads its input at real time (MEDIA_TEST_PACING_PERCENT=100), so
 * the encoder stays behind the player whatever the machine's load: hls.js starts on an EVENT playlist
 * of the first segments and plays past them as the worker publishes more.
 */
const run = promisify(execFile)
const PAGE = hlsPage('/test-player/hls.js')

describe('a player that starts while the ladder is encoding', { skip: mediaSkip || NO_CHROMIUM }, () => {
  let stack: Stack
  let root: string
  let browser: Browser
  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'cdn', 'worker'], { MEDIA_TEST_PACING_PERCENT: '100' })
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
    await stack?.close()
    await removeScratchDir(root)
  })

  it('plays from 0 past the segments that existed when it started, in Chromium with hls.js', async () => {
    // MPEG-4 Part 2 is not standard input: nothing is copied, the one rendition is encoded.
    const source = join(root, 'mpeg4.mp4')
    await run('ffmpeg', [
      '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
      '-t', '10', '-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'aac', '-b:a', '64k', source
    ])
    const id = await upload(stack, source)
    // Playable once the first rendition has its lead; the ladder is still at work.
    let live: any
    for (;;) {
      live = (await stack.call('GET', `/v2/assets/${id}`)).json
      if (live.status !== 'processing') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    assert.equal(live.status, 'live', live.processing_error)
    const masterUrl = stack.cdn + pathOf(live.stream_urls.iphone)
    const variant = (await (await fetch(masterUrl)).text()).split('\n').find((line) => line.endsWith('.m3u8')) as string
    const atStart = await (await fetch(new URL(variant, masterUrl))).text()
    assert.match(atStart, /#EXT-X-PLAYLIST-TYPE:EVENT\n/)
    assert.doesNotMatch(atStart, /#EXT-X-ENDLIST/, 'the rendition is still being encoded when the player starts')
    const secondsAtStart = [...atStart.matchAll(/#EXTINF:([\d.]+),/g)].reduce((sum, m) => sum + Number(m[1]), 0)
    assert.ok(secondsAtStart < 9, `${secondsAtStart} s published at start`)

    const page = await browser.tab()
    await page.route(`${stack.cdn}/test-player/**`, async (route) => {
      const url = new URL(route.request().url())
      if (url.pathname.endsWith('/hls.js')) await route.fulfill({ contentType: 'text/javascript', body: await readFile(HLS_JS) })
      else await route.fulfill({ contentType: 'text/html', body: PAGE })
    })
    await page.goto(`${stack.cdn}/test-player/page.html?src=${encodeURIComponent(masterUrl)}`)
    await page.waitForFunction((past) => (document.getElementById('v') as HTMLVideoElement).currentTime > past, secondsAtStart + 0.5, { timeout: 120_000 })
    const seen = await page.evaluate(() => ({ first: (window as any).firstPlaying as number, errors: (window as any).hlsErrors as string[] }))
    assert.ok(seen.first < 0.5, `started playing at ${seen.first} s`)
    assert.deepEqual(seen.errors, [])
    const done = await finished(stack, id)
    assert.ok(Math.abs(done.duration - 10_000) <= 100, `duration ${done.duration}`)
    assert.deepEqual(browser.seen.errors, [])
  })
})
