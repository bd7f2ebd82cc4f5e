import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { checkMedia, makeScratchDir, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { finished, fromCdn, pathOf, startStack, upload, type Stack } from './support.ts'

/**
 * Storyboards and downloads (docs/media.md): the storyboard's sprite sheets come from the ladder's own
 * decode (or a decode of their own beside a copy alone) and its WebVTT cues point inside them;
 * `mp4_support: "standard"` adds an MP4 of the top rendition and an M4A of its audio, remuxed, which
 * `mp4` syndications carry.
 */
const run = promisify(execFile)

/** H.264 below High (the ladder encodes High, so an MP4 of the source's profile is the copy, remuxed) + AAC-LC. */
async function standardClip (file: string, size: string, seconds: number): Promise<string> {
  await run('ffmpeg', [
    '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'main', '-pix_fmt', 'yuv420p', '-g', '50', '-b:v', '600k',
    '-c:a', 'aac', '-b:a', '96k', file
  ])
  return file
}

interface Cue { startMs: number, endMs: number, sprite: string, x: number, y: number, w: number, h: number }

function parseVtt (text: string): Cue[] {
  assert.ok(text.startsWith('WEBVTT\n'), text.slice(0, 40))
  const time = (t: string): number => {
    const [h, m, s] = t.split(':')
    return Math.round((Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000)
  }
  const cues: Cue[] = []
  for (const block of text.split('\n\n').slice(1).filter((b) => b.trim() !== '')) {
    const [timing, payload] = block.split('\n')
    const t = /^(\S+) --> (\S+)$/.exec(timing ?? '')
    const p = /^(.+)#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(payload ?? '')
    assert.ok(t !== null && p !== null, `a cue: ${block}`)
    cues.push({ startMs: time(t[1] as string), endMs: time(t[2] as string), sprite: p[1] as string, x: Number(p[2]), y: Number(p[3]), w: Number(p[4]), h: Number(p[5]) })
  }
  return cues
}

describe('storyboards and downloads', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'cdn', 'worker'])
  })
  after(async () => {
    await stack?.close()
    await removeScratchDir(root)
  })

  /** Fetches the storyboard and checks every cue against its sheet's decoded size; answers the cues. */
  async function checkStoryboard (asset: any): Promise<Cue[]> {
    const res = await fromCdn(stack, asset.stream_urls.storyboard)
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'text/vtt; charset=utf-8')
    assert.equal(res.headers.get('cache-control'), 'no-cache')
    const cues = parseVtt(await res.text())
    assert.ok(cues.length > 0)
    const sizes = new Map<string, { width: number, height: number }>()
    for (const cue of cues) {
      if (!sizes.has(cue.sprite)) {
        // Sheet URLs are relative to the WebVTT file's.
        const url = new URL(cue.sprite, asset.stream_urls.storyboard).href
        const sheet = await fromCdn(stack, url)
        assert.equal(sheet.status, 200, url)
        assert.equal(sheet.headers.get('content-type'), 'image/jpeg')
        assert.equal(sheet.headers.get('cache-control'), 'public, max-age=31536000, immutable')
        const file = join(root, `sheet-${sizes.size}-${cue.sprite.split('/').pop() as string}`)
        await writeFile(file, Buffer.from(await sheet.arrayBuffer()))
        const [stream] = (await checkMedia(file)).streams
        sizes.set(cue.sprite, { width: Number(stream?.width), height: Number(stream?.height) })
      }
      const size = sizes.get(cue.sprite) as { width: number, height: number }
      assert.ok(cue.w > 0 && cue.h > 0 && cue.x + cue.w <= size.width && cue.y + cue.h <= size.height, `${JSON.stringify(cue)} inside ${size.width}×${size.height}`)
    }
    // The cues follow each other from 0 to the end of what plays.
    assert.equal(cues[0]?.startMs, 0)
    for (let i = 1; i < cues.length; i++) assert.equal(cues[i]?.startMs, cues[i - 1]?.endMs)
    assert.equal(cues.at(-1)?.endMs, asset.duration)
    return cues
  }

  it('a storyboard from the ladder\'s decode, an MP4 and an M4A remuxed, carried by an mp4 feed', async () => {
    const file = await standardClip(join(root, 'clip.mp4'), '854x480', 12)
    const id = await upload(stack, file, { mp4Support: 'standard' })
    const asset = await finished(stack, id, (a) => a.stream_urls?.mp4 !== undefined)
    assert.equal(asset.status, 'live', asset.processing_error)
    assert.equal(asset.mp4_support, 'standard')
    // 480p copied, 360p encoded: the storyboard is one more branch of the 360p run's decode.
    const cues = await checkStoryboard(asset)
    assert.equal(cues.length, 6, 'a frame every 2 s of 12 s')
    assert.deepEqual([cues[0]?.w, cues[0]?.h], [160, 90])
    assert.deepEqual(cues.slice(0, 6).map((c) => [c.x, c.y]), [[0, 0], [160, 0], [320, 0], [480, 0], [640, 0], [0, 90]])

    assert.equal(asset.stream_urls.mp4.endsWith('/download.mp4'), true)
    const mp4 = await fromCdn(stack, asset.stream_urls.mp4)
    assert.equal(mp4.status, 200)
    assert.equal(mp4.headers.get('content-type'), 'video/mp4')
    assert.equal(mp4.headers.get('content-disposition'), 'attachment; filename="clip.mp4"')
    await writeFile(join(root, 'download.mp4'), Buffer.from(await mp4.arrayBuffer()))
    const video = await checkMedia(join(root, 'download.mp4'))
    // The copied top rendition, not encoded again: the source's own profile (the ladder encodes High) and size.
    const sourceProfile = (await checkMedia(file)).streams.find((s) => s.codec_type === 'video')?.profile
    assert.notEqual(sourceProfile, 'High')
    assert.deepEqual(video.streams.map((s) => [s.codec_type, s.codec_name, s.profile, s.width]), [['video', 'h264', sourceProfile, 854], ['audio', 'aac', 'LC', undefined]])
    assert.ok(Math.abs(video.durationMs - asset.duration) <= 100, `${video.durationMs} vs ${asset.duration}`)

    const m4a = await fromCdn(stack, asset.stream_urls.m4a)
    assert.equal(m4a.status, 200)
    assert.equal(m4a.headers.get('content-type'), 'audio/mp4')
    await writeFile(join(root, 'download.m4a'), Buffer.from(await m4a.arrayBuffer()))
    const audio = await checkMedia(join(root, 'download.m4a'))
    assert.deepEqual(audio.streams.map((s) => [s.codec_type, s.codec_name]), [['audio', 'aac']])
    assert.ok(Math.abs(audio.durationMs - asset.duration) <= 100, `${audio.durationMs} vs ${asset.duration}`)

    const pcode = stack.admin.api_key.split('.')[0] as string
    const created = await stack.call('POST', '/v2/syndications', { name: 'Downloads', type: 'mp4', include_all_content: true })
    assert.equal(created.status, 200, JSON.stringify(created.json))
    const feed = await fetch(`${stack.cdn}/v2/syndications/${created.json.id}/feed?pcode=${pcode}`)
    const xml = await feed.text()
    assert.equal(feed.status, 200, xml)
    assert.ok(xml.includes(asset.stream_urls.mp4), 'the mp4 feed carries the MP4 download')
  })

  it('a copy alone gets its storyboard from a decode of its own; without mp4_support no downloads', async () => {
    const file = await standardClip(join(root, 'small.mp4'), '640x360', 5)
    const id = await upload(stack, file)
    const asset = await finished(stack, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    assert.equal(asset.mp4_support, 'none')
    assert.deepEqual(Object.keys(asset.stream_urls).sort(), ['ipad', 'iphone', 'source_file', 'storyboard'])
    const cues = await checkStoryboard(asset)
    assert.equal(cues.length, 3, 'frames at 0, 2 and 4 s of 5 s')
    const res = await fromCdn(stack, asset.stream_urls.storyboard.replace('storyboard.vtt', 'download.mp4'))
    assert.equal(res.status, 404)
    assert.equal(pathOf(asset.stream_urls.storyboard).endsWith('/storyboard.vtt'), true)
  })
})
