import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { signedPath } from '../../../src/signing/index.ts'
import { launchBrowser, NO_CHROMIUM, type Browser } from '../../console/support/browser.ts'
import { makeScratchDir, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { finished, fromCdn, pathOf, replace, startStack, upload, type Stack } from './support.ts'

/**
 * Caption tracks in the stream (docs/captions.md, "In the stream"): the master's SUBTITLES group, its
 * segmented WebVTT on each rendition's timeline, played by hls.js in Chromium, before and after the
 * asset's media is replaced. One asset, processed once, replaced once.
 */
const run = promisify(execFile)
const HLS_JS = createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js')
const TRACK = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nFirst words.\n\n00:00:03.000 --> 00:00:05.000\nThe known cue.\n\n00:00:05.500 --> 00:00:06.500\nAcross the border.\n'

const PAGE = `<!doctype html><meta charset="utf-8"><video id="v" muted playsinline></video>
<script src="/test-player/hls.js"></script>
<script>
  const video = document.getElementById('v')
  window.hlsErrors = []
  const hls = new Hls({ subtitleDisplay: true })
  window.hls = hls
  hls.on(Hls.Events.ERROR, (_e, data) => { if (data.fatal) window.hlsErrors.push(data.details) })
  hls.loadSource(new URLSearchParams(location.search).get('src'))
  hls.attachMedia(video)
</script>`

/** The text of the active cues of the page's showing text track once the video stands at `seconds`. */
async function activeCuesAt (page: Page, seconds: number): Promise<{ labels: string[], active: string[], start: number | null }> {
  await page.waitForFunction(() => (document.getElementById('v') as HTMLVideoElement).readyState >= 2, undefined, { timeout: 60_000 })
  await page.evaluate((at) => { (document.getElementById('v') as HTMLVideoElement).currentTime = at }, seconds)
  await page.waitForFunction(() => {
    const video = document.getElementById('v') as HTMLVideoElement
    return [...video.textTracks].some((t) => t.mode === 'showing' && (t.activeCues?.length ?? 0) > 0)
  }, undefined, { timeout: 30_000 }).catch(async (error: Error) => {
    const state = await page.evaluate(() => {
      const video = document.getElementById('v') as HTMLVideoElement
      return JSON.stringify({ time: video.currentTime, tracks: [...video.textTracks].map((t) => ({ kind: t.kind, mode: t.mode, label: t.label, cues: [...(t.cues ?? [])].map((c) => `${c.startTime}-${c.endTime}`) })), hls: (window as any).hls.subtitleTrack, errors: (window as any).hlsErrors })
    })
    throw new Error(`${error.message}: ${state}`)
  })
  return await page.evaluate(() => {
    const video = document.getElementById('v') as HTMLVideoElement
    const tracks = [...video.textTracks]
    const showing = tracks.find((t) => t.mode === 'showing')
    const active = [...(showing?.activeCues ?? [])] as VTTCue[]
    return { labels: tracks.map((t) => `${t.kind}:${t.language}:${t.label}`), active: active.map((c) => c.text), start: active[0]?.startTime ?? null }
  })
}

describe('caption tracks in the stream', { skip: mediaSkip || NO_CHROMIUM }, () => {
  let stack: Stack
  let root: string
  let browser: Browser
  let id: string
  let asset: any
  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'cdn', 'worker'])
    browser = await launchBrowser()
    // Standard input (H.264 with B-frames, AAC, 360p): its one rendition is a stream copy, whose first
    // PTS is the source's (audio priming included), not the encoder's; the replacement below is encoded.
    const source = join(root, 'standard.mp4')
    await run('ffmpeg', [
      '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
      '-t', '7', '-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '2', '-g', '50', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', source
    ])
    id = await upload(stack, source)
    asset = await finished(stack, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    const path = `/v2/assets/${id}/captions/en`
    const res = await fetch(stack.api + signedPath({ apiKey: stack.admin.api_key, secret: stack.admin.secret, method: 'PUT', path, body: TRACK }), {
      method: 'PUT', body: TRACK, headers: { 'x-forwarded-proto': 'https', 'content-type': 'text/vtt' }
    })
    assert.ok(res.ok, await res.text())
  })
  after(async () => {
    await browser?.close()
    await stack?.close()
    await removeScratchDir(root)
  })

  it('names the track in a SUBTITLES group, each rendition\'s segments mapped to the PTS its first segment starts at', async () => {
    const masterRes = await fromCdn(stack, asset.stream_urls.iphone)
    const master = await masterRes.text()
    assert.equal(masterRes.headers.get('cache-control'), 'public, max-age=10')
    const media = [...master.matchAll(/^#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="([^"]+)",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="([^"]+)"$/gm)]
    assert.ok(media.length >= 1, master)
    const variants = [...master.matchAll(/^#EXT-X-STREAM-INF:.*SUBTITLES="([^"]+)"\n(.+)$/gm)]
    assert.equal(variants.length, 1, master)
    for (const [, group, variant] of variants) {
      const uri = media.find((m) => m[1] === group)?.[2]
      assert.ok(uri !== undefined, `group ${group} is in the master`)
      const rendition = (variant as string).split('/')[1] as string
      assert.match(uri, new RegExp(`/${rendition}/index\\.m3u8$`), 'the group follows the timeline of the copied rendition')
      // The segment's first PTS as ffprobe reads it (the earliest stream start).
      const base = new URL(asset.stream_urls.iphone)
      const segmentUrl = new URL(`${variant as string}`.replace('index.m3u8', 'segment-00000.ts'), base).href
      const file = join(root, `${rendition}.ts`)
      await import('node:fs/promises').then(async (fs) => { await fs.writeFile(file, Buffer.from(await (await fromCdn(stack, segmentUrl)).arrayBuffer())) })
      const probed = Number((await run('ffprobe', ['-v', 'error', '-show_entries', 'format=start_time', '-of', 'csv=p=0', file])).stdout.trim())
      const playlistRes = await fromCdn(stack, new URL(uri, base).href)
      assert.equal(playlistRes.headers.get('cache-control'), 'public, max-age=10')
      assert.match(await playlistRes.text(), /#EXTINF:6\.000,\nsegment-00000\.vtt\n#EXTINF:1\.\d{3},\nsegment-00001\.vtt\n#EXT-X-ENDLIST/)
      const segment = await (await fromCdn(stack, new URL(uri.replace('index.m3u8', 'segment-00001.vtt'), base).href)).text()
      const mpegts = Number(/X-TIMESTAMP-MAP=MPEGTS:(\d+),LOCAL:00:00:00\.000/.exec(segment)?.[1])
      assert.equal(mpegts, Math.round(probed * 90_000), `${rendition}: ${segment}`)
      assert.notEqual(mpegts, 126_000, 'not the start of an encoded rendition (1.4 s)')
      assert.match(segment, /00:00:05\.500 --> 00:00:06\.500\nAcross the border\./, 'a cue across a border is in the segment after it too')
    }
  })

  async function play (): Promise<Page> {
    const page = await browser.tab()
    await page.route(`${stack.cdn}/test-player/**`, async (route) => {
      const url = new URL(route.request().url())
      if (url.pathname.endsWith('/hls.js')) await route.fulfill({ contentType: 'text/javascript', body: await readFile(HLS_JS) })
      else await route.fulfill({ contentType: 'text/html', body: PAGE })
    })
    await page.goto(`${stack.cdn}/test-player/page.html?src=${encodeURIComponent(stack.cdn + pathOf(asset.stream_urls.iphone))}`)
    await page.waitForFunction(() => (window as any).hls.subtitleTracks.length > 0, undefined, { timeout: 60_000 })
    // The player's caption language is not set: hls.js is told which track to show, as a captions menu does.
    await page.evaluate(() => { (window as any).hls.subtitleTrack = 0 })
    return page
  }

  it('shows the cue at its time in Chromium with hls.js, and again after the media is replaced', async () => {
    let page = await play()
    let seen = await activeCuesAt(page, 4)
    assert.ok(seen.labels.includes('subtitles:en:English'), seen.labels.join())
    assert.deepEqual(seen.active, ['The known cue.'])
    assert.ok(Math.abs((seen.start as number) - 3) < 0.1, `the cue starts at ${seen.start} s`)
    assert.deepEqual(await page.evaluate(() => (window as any).hlsErrors), [])
    await page.close()

    // A replacement that is not standard input (MPEG-4 Part 2: every rendition encoded, its own version).
    const second = join(root, 'second.mp4')
    await run('ffmpeg', [
      '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=660:sample_rate=48000',
      '-t', '6', '-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'aac', '-b:a', '64k', second
    ])
    const before = asset.stream_urls.iphone as string
    const oldMaster = await (await fromCdn(stack, before)).text()
    await replace(stack, id, second)
    asset = await finished(stack, id, (a) => a.duration !== undefined && Math.abs(a.duration - 6000) < 200)
    assert.equal(asset.stream_urls.iphone, before, 'the same master URL')
    const newMaster = await (await fromCdn(stack, before)).text()
    assert.notEqual(newMaster, oldMaster)
    assert.match(newMaster, /TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en"/, 'the track is kept by the new version')
    const newUri = /URI="([^"]+)"/.exec(newMaster)?.[1] as string
    assert.notEqual(newUri, /URI="([^"]+)"/.exec(oldMaster)?.[1], 'on the new version\'s timeline')
    const newSegment = await (await fromCdn(stack, new URL(newUri.replace('index.m3u8', 'segment-00000.vtt'), before).href)).text()
    assert.match(newSegment, /X-TIMESTAMP-MAP=MPEGTS:\d+,LOCAL:00:00:00\.000\n\n00:00:01\.000 --> 00:00:02\.000\nFirst words\./)
    page = await play()
    seen = await activeCuesAt(page, 4)
    assert.deepEqual(seen.active, ['The known cue.'])
    assert.deepEqual(await page.evaluate(() => (window as any).hlsErrors), [])
    await page.close()
    assert.deepEqual(browser.seen.errors, [])
  })

  it('answers the subtitle files under the asset\'s rules: a paused asset\'s are refused', async () => {
    const master = await (await fromCdn(stack, asset.stream_urls.iphone)).text()
    const uri = /URI="([^"]+)"/.exec(master)?.[1] as string
    const url = new URL(uri, asset.stream_urls.iphone).href
    assert.equal((await fromCdn(stack, url)).status, 200)
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'paused' })).status, 200)
    const refused = await fromCdn(stack, url)
    assert.equal(refused.status, 403, await refused.text())
    assert.equal((await fromCdn(stack, url.replace('index.m3u8', 'segment-00000.vtt'))).status, 403)
    assert.equal((await stack.call('PATCH', `/v2/assets/${id}`, { status: 'live' })).status, 200)
    // Bad requests: what each answers, and its error code.
    const version = /\/en\/([^/]+)\//.exec(url)?.[1] as string
    const table: Array<[string, string, number, string]> = [
      ['a language without a track', url.replace('/en/', '/fr/'), 404, 'media_not_found'],
      ['a language that is no tag', url.replace('/en/', '/e%20n!/'), 404, 'media_not_found'],
      ['a rendition the version does not have', url.replace(/\/[^/]+\/index\.m3u8$/, '/999p/index.m3u8'), 404, 'media_not_found'],
      ['a version the asset does not have', url.replace(version, 'A'.repeat(22)), 404, 'media_not_found'],
      ['a segment past the last', url.replace('index.m3u8', 'segment-00099.vtt'), 404, 'media_not_found'],
      ['a file name of another kind', url.replace('index.m3u8', 'segment-00000.ts'), 400, 'validation_failed'],
      ['a token of no asset', url.replace(/\/media\/[^/]+\//, `/media/${'Z'.repeat(22)}/`), 404, 'media_not_found']
    ]
    for (const [what, bad, status, code] of table) {
      const res = await fromCdn(stack, bad)
      const body = await res.text()
      assert.equal(res.status, status, `${what}: ${body}`)
      assert.equal(JSON.parse(body).code ?? JSON.parse(body).error, code, `${what}: ${body}`)
    }
  })
})
