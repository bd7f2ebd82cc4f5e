import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { makeScratchDir, mediaSkip, removeScratchDir } from '../support/media-fixtures.ts'
import { launchBrowser, NO_CHROMIUM, type Browser } from './support/browser.ts'
import { startConsoleServer, uploadBytes, type ConsoleServer } from './support/console-server.ts'

// The console's asset page while media is processed (docs/console.md): a job waiting shows its place in
// the queue, then runs; an asset that plays while its ladder is encoding says which renditions play and
// which are coming, and lists each rendition's state; the timeline shows the storyboard's thumbnail of
// the moment under the pointer; an editor picks the preview among the generated frames or sends a file.
// One worker job at a time (MEDIA_WORKER_CONCURRENCY=1) whose encoders read at real time
// (MEDIA_TEST_PACING_PERCENT=100), so each state lasts long enough to be seen whatever the machine's load.

const run = promisify(execFile)
const WAIT = { timeout: 120_000 }

async function ffmpeg (args: string[]): Promise<void> {
  await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args])
}

/** MPEG-4 Part 2 is not standard input: its one rendition is encoded, at real time here. */
async function encodedClip (file: string, seconds: number): Promise<Buffer> {
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-t', String(seconds), '-c:v', 'mpeg4', '-q:v', '5', file])
  return await readFile(file)
}

/** Standard input at 720p: copied as the top rendition at once, 360p encoded behind it at real time. */
async function standardClip (file: string, seconds: number): Promise<Buffer> {
  await ffmpeg([
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'main', '-pix_fmt', 'yuv420p', '-g', '50', '-b:v', '1500k', '-c:a', 'aac', '-b:a', '96k', file
  ])
  return await readFile(file)
}

async function asset (server: ConsoleServer, id: string): Promise<Record<string, any>> {
  return (await server.signed('GET', `/v2/assets/${id}`)).json()
}

/** Waits for the page's processing line to read `pattern`; answers the text. */
async function lineReads (page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction((source) => new RegExp(source).test(document.getElementById('processing-state')?.textContent ?? ''), pattern.source, WAIT)
  return await page.locator('#processing-state').textContent() ?? ''
}

describe('the console while media is processed, in a browser', { skip: mediaSkip || NO_CHROMIUM, timeout: 300_000 }, () => {
  let server: ConsoleServer
  let browser: Browser
  let page: Page
  let root: string
  let standardId = ''
  before(async () => {
    root = await makeScratchDir()
    server = await startConsoleServer({ MEDIA_WORKER_CONCURRENCY: '1', MEDIA_TEST_PACING_PERCENT: '100' })
    browser = await launchBrowser()
    page = await browser.tab()
    await page.goto(`${server.baseUrl}/console#${new URLSearchParams({ api_key: server.admin.apiKey, secret: server.admin.secret }).toString()}`)
    await page.locator('#whoami').waitFor(WAIT)
  })
  after(async () => {
    await browser?.close()
    await server?.close()
    await removeScratchDir(root)
  })

  it('shows a waiting job its place in the queue, then that it plays with one rendition while the other is encoding', async () => {
    const blocker = await uploadBytes(server, 'Blocker', 'video', 'blocker.mp4', await encodedClip(join(root, 'blocker.mp4'), 6))
    for (let a = await asset(server, blocker); a.processing?.state !== 'running'; a = await asset(server, blocker)) {
      assert.notEqual(a.status, 'error', a.processing_error)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    standardId = await uploadBytes(server, 'Harbour at noon', 'video', 'harbour.mp4', await standardClip(join(root, 'harbour.mp4'), 10))
    const last = await uploadBytes(server, 'Last in line', 'video', 'last.mp4', await encodedClip(join(root, 'last.mp4'), 2))

    await page.goto(`${server.baseUrl}/console#/assets/${last}`)
    assert.equal(await lineReads(page, /position 2\./), 'Waiting in the queue: position 2.')
    assert.equal(await lineReads(page, /position 1\./), 'Waiting in the queue: position 1.')

    // The standard clip runs now: its 720p copy plays at once, its 360p is encoded at real time.
    await page.goto(`${server.baseUrl}/console#/assets/${standardId}`)
    // The line and the renditions table, read together once the table has caught up with the line
    // (both follow the same polling, the table a request later).
    const seen = await page.waitForFunction(() => {
      const line = document.getElementById('processing-state')?.textContent ?? ''
      const rows = [...document.querySelectorAll('.renditions-table tbody tr')].map((tr) => [tr.querySelector('th')?.textContent, tr.getAttribute('data-state')])
      return line.startsWith('Playable now (') && rows.some(([name, state]) => name === '720p' && state === 'ready') ? { line, rows } : null
    }, undefined, WAIT)
    const { line, rows } = await seen.jsonValue() as { line: string, rows: string[][] }
    assert.match(line, /^Playable now \(720p\); 360p processing(, about \d+ (s|min))?\.$/)
    assert.equal(rows.length, 2, JSON.stringify(rows))
    assert.deepEqual(rows[1], ['720p', 'ready'], 'the copy is made')
    assert.ok(rows[0]?.[0] === '360p' && ['pending', 'processing'].includes(rows[0][1] as string), JSON.stringify(rows))
    assert.equal(await page.locator('#player').count(), 1, 'the player is there while the ladder is encoding')

    // The page draws itself again once the whole ladder is made: the line goes.
    await page.locator('#processing-state').waitFor({ state: 'detached', ...WAIT })
    assert.equal((await asset(server, last)).status !== 'error', true)
  })

  it('shows the storyboard thumbnail of the moment under the pointer, the region its WebVTT cue names', async () => {
    assert.notEqual(standardId, '', 'the first test processed the clip')
    let done = await asset(server, standardId)
    while (done.status !== 'error' && done.processing_progress !== 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      done = await asset(server, standardId)
    }
    await page.locator('#processing-state').waitFor({ state: 'detached', ...WAIT })
    const vtt = await (await page.request.get(done.stream_urls.storyboard)).text()
    const bar = page.locator('.timeline .seek')
    await bar.waitFor(WAIT)
    const box = await bar.boundingBox()
    assert.ok(box !== null)
    // 55 % of 10 s: 5.5 s, in the cue from 4 to 6 s.
    await page.mouse.move(box.x + box.width * 0.55, box.y + box.height / 2)
    const thumb = page.locator('.storyboard-tip:not([hidden]) canvas.storyboard-thumb[data-drawn="true"]')
    await thumb.waitFor(WAIT)
    const cue = /00:00:04\.000 --> 00:00:06\.000\n(\S+)#xywh=(\d+,\d+,\d+,\d+)/.exec(vtt)
    assert.ok(cue !== null, vtt)
    const drawn = await thumb.evaluate((canvas: HTMLCanvasElement) => {
      const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray()
      let lit = 0
      for (let i = 0; i < pixels.length; i += 4) if ((pixels[i] ?? 0) + (pixels[i + 1] ?? 0) + (pixels[i + 2] ?? 0) > 60) lit++
      return { sprite: canvas.dataset.sprite, xywh: canvas.dataset.xywh, size: [canvas.width, canvas.height], lit }
    })
    assert.equal(drawn.sprite, new URL(cue[1] as string, done.stream_urls.storyboard).href)
    assert.equal(drawn.xywh, cue[2])
    const [, , w, h] = (cue[2] as string).split(',').map(Number)
    assert.deepEqual(drawn.size, [w, h])
    assert.ok(drawn.lit > 0, 'the thumbnail holds a picture')
    assert.equal(await page.locator('.storyboard-time').textContent(), '0:06')
    await page.mouse.move(0, 0)
    await page.locator('.storyboard-tip[hidden]').waitFor({ state: 'attached', ...WAIT })
  })

  it('lets an editor pick the preview among the generated frames, or send an image file', async () => {
    const frames = page.locator('.preview-frames button.frame')
    await frames.first().waitFor(WAIT)
    const times = await frames.evaluateAll((buttons) => buttons.map((b) => Number((b as HTMLElement).dataset.time)))
    assert.deepEqual(times, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    await page.locator('.preview-frames button.frame[data-time="4"]').click()
    await page.getByText('Preview saved: the frame at 4 s.').waitFor(WAIT)
    assert.equal(await page.locator('.preview-frames button.frame[data-time="4"]').getAttribute('aria-pressed'), 'true')
    assert.equal(await page.locator('#preview-chosen').textContent(), 'The frame at 4 s.')
    const chosen = (await server.signed('GET', `/v2/assets/${standardId}/primary_preview_image`)).json()
    assert.deepEqual([chosen.type, chosen.time], ['generated', 4])

    const png = join(root, 'poster.png')
    await ffmpeg(['-f', 'lavfi', '-i', 'color=c=orange:size=320x180', '-frames:v', '1', png])
    await page.locator('input[name="preview-file"]').setInputFiles(png)
    await page.getByRole('button', { name: 'Use this image' }).click()
    await page.getByText('Preview saved: the image you sent.').waitFor(WAIT)
    assert.equal(await page.locator('#preview-chosen').textContent(), 'An image you sent.')
    assert.equal(await page.locator('.preview-frames button.frame[aria-pressed="true"]').count(), 0)
    const sent = (await server.signed('GET', `/v2/assets/${standardId}/primary_preview_image`)).json()
    assert.equal(sent.type, 'uploaded_file')
    const served = await (await page.request.get(sent.url)).body()
    assert.ok(served.equals(await readFile(png)), 'the preview is the file sent')

    // A file that is no image: the server's sentence, and the preview stays.
    const text = join(root, 'notes.png')
    await ffmpeg(['-f', 'lavfi', '-i', 'anullsrc', '-t', '0.1', '-f', 'wav', text])
    await page.locator('input[name="preview-file"]').setInputFiles(text)
    await page.getByRole('button', { name: 'Use this image' }).click()
    await page.getByText('The body is not a JPEG or PNG image.').waitFor(WAIT)
    assert.equal((await server.signed('GET', `/v2/assets/${standardId}/primary_preview_image`)).json().type, 'uploaded_file')
    assert.deepEqual(browser.seen.violations, [])
    assert.deepEqual(browser.seen.errors, [])
  })
})
