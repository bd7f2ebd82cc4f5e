import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { stat, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { checkMedia, makeScratchDir, makeVideo, meanLuma, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { finished, pathOf, startStack, upload, type Stack } from './support.ts'

/**
 * Publishing in seconds (docs/media.md): standard input is copied as the top rendition and only the
 * lower ones are encoded, in one decode; media playlists grow and end as VOD; the duration is what the
 * renditions play, with a warning for a file cut short; rotated phone video is never copied.
 */
const run = promisify(execFile)
async function ffmpeg (args: string[]): Promise<void> {
  await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args])
}

/** H.264 Main (the ladder encodes High, so the master's CODECS tells a copy from an encode) + AAC-LC. */
async function standardClip (file: string, seconds: number, extra: string[] = []): Promise<string> {
  await ffmpeg([
    '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'main', '-pix_fmt', 'yuv420p', '-g', '50', '-b:v', '600k',
    '-c:a', 'aac', '-b:a', '96k', ...extra, file
  ])
  return file
}

async function playlist (stack: Stack, url: string): Promise<{ text: string, cacheControl: string | null }> {
  const res = await fetch(stack.cdn + pathOf(url))
  assert.equal(res.status, 200)
  return { text: await res.text(), cacheControl: res.headers.get('cache-control') }
}

describe('publishing: standard input, one decode, growing playlists, the duration that plays', { skip: mediaSkip }, () => {
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

  it('copies standard input as the top rendition and encodes only the lower one; every playlist ends as VOD', async () => {
    const source = await standardClip(join(root, 'standard.mp4'), 3)
    const id = await upload(stack, await (async () => {
      // 640×360 has one rung: make it 720p so a lower rendition is encoded beside the copy.
      const big = join(root, 'standard720.mp4')
      await ffmpeg(['-i', source, '-vf', 'scale=1280:720', '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'main', '-g', '50', '-b:v', '1500k', '-c:a', 'copy', big])
      return big
    })())
    const asset = await finished(stack, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    assert.deepEqual(asset.processing_warnings, [])
    const streams = (await stack.call('GET', `/v2/assets/${id}/streams`)).json.items
    assert.deepEqual(streams.map((s: any) => [s.name, s.state, s.width, s.height]), [['360p', 'ready', 640, 360], ['720p', 'ready', 1280, 720]])
    // The copy keeps the source's profile (x264's ultrafast Main reads as Constrained Baseline, 42e0);
    // the encoded rendition is High (6400).
    assert.match(streams[1].codecs, /^avc1\.(42e0|4200|4d40)[0-9a-f]{2},mp4a\.40\.2$/)
    assert.match(streams[0].codecs, /^avc1\.6400[0-9a-f]{2},mp4a\.40\.2$/)
    const master = await playlist(stack, asset.stream_urls.iphone)
    assert.ok(master.text.includes(`CODECS="${streams[1].codecs as string}"`), master.text)
    for (const s of streams) {
      const media = await playlist(stack, s.url)
      assert.equal(media.cacheControl, 'no-cache')
      assert.match(media.text, /#EXT-X-PLAYLIST-TYPE:VOD\n/)
      assert.match(media.text, /#EXT-X-START:TIME-OFFSET=0\n/)
      assert.match(media.text, /#EXT-X-ENDLIST\n$/)
      // Borders are the same in both renditions: the encoded one follows the source's key frames.
      // (within a few frames: the encoder's output may start a frame or two after the source's first one).
      const durations = [...media.text.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]))
      assert.equal(durations.length, 2, `${s.name}: ${media.text}`)
      assert.ok(Math.abs((durations[0] ?? 0) - 2) <= 0.15 && Math.abs((durations[1] ?? 0) - 1) <= 0.15, `${s.name}: ${media.text}`)
    }
    const played = await checkMedia(stack.cdn + pathOf(asset.stream_urls.iphone))
    assert.ok(Math.abs(played.durationMs - 3000) <= 100, `plays ${played.durationMs} ms`)
  })

  it('gives a truncated MP4 the duration its renditions play, and a warning in words', async () => {
    const whole = await standardClip(join(root, 'whole.mp4'), 8, ['-movflags', '+faststart'])
    const { size } = await stat(whole)
    await truncate(whole, Math.floor(size * 0.4))
    const asset = await finished(stack, await upload(stack, whole))
    assert.equal(asset.status, 'live', asset.processing_error)
    assert.ok(asset.duration < 7000, `duration ${asset.duration}`)
    const played = await checkMedia(stack.cdn + pathOf(asset.stream_urls.iphone))
    assert.ok(Math.abs(played.durationMs - asset.duration) <= 100, `duration ${asset.duration} ms, plays ${played.durationMs} ms`)
    assert.equal(asset.processing_warnings.length, 1)
    assert.match(asset.processing_warnings[0], /^The file ends after \d+\.\d s of its 8 s: it may be cut short\.$/)
    const info = await stack.call('GET', `/v2/assets/${asset.embed_code}/source_file_info`)
    assert.equal(info.json.duration, 8000, 'source_file_info keeps what the header claims')
  })

  it('does not copy a rotated phone clip: it is encoded and comes out upright', async () => {
    // Stored 640×360 with its left half white (else standard input); rotation metadata turns it a quarter.
    const phone = await makeVideo(join(root, 'phone.mp4'), { width: 640, height: 360, seconds: 2, rotate: 90, picture: 'halves' })
    const asset = await finished(stack, await upload(stack, phone))
    assert.equal(asset.status, 'live', asset.processing_error)
    const streams = (await stack.call('GET', `/v2/assets/${asset.embed_code}/streams`)).json.items
    assert.deepEqual(streams.map((s: any) => [s.name, s.width, s.height]), [['360p', 360, 640]])
    assert.match(streams[0].codecs, /^avc1\.6400/, 'encoded (High), not the copied Main')
    const played = await checkMedia(stack.cdn + pathOf(asset.stream_urls.iphone))
    const video = played.streams.find((s) => s.codec_type === 'video')
    assert.deepEqual([video?.width, video?.height], [360, 640])
    // Upright, not stretched: the white half is at the top or the bottom of what plays, left equals right.
    const [top, bottom, left, right] = await Promise.all((['top', 'bottom', 'left', 'right'] as const).map(async (r) => await meanLuma(stack.cdn + pathOf(asset.stream_urls.iphone), r)))
    assert.ok(Math.abs(top - bottom) > 150, `top ${top}, bottom ${bottom}`)
    assert.ok(Math.abs(left - right) < 30, `left ${left}, right ${right}`)
  })
})
