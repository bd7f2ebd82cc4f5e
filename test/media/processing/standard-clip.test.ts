import assert from 'node:assert/strict'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  locateMediaTools, makePreview, planLadder, probeMedia, transcodeRendition, writeMasterPlaylist,
  type MediaTools, type RenditionOutput
} from '../../../src/media/processing/index.ts'
import { checkMedia, decodeAll, jobInput, makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'

/** The variants of a master playlist: its attributes and URI. */
function variants (master: string): Array<{ attributes: Record<string, string>, uri: string }> {
  const lines = master.trim().split('\n')
  return lines.flatMap((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return []
    const attributes = Object.fromEntries([...line.slice(18).matchAll(/([A-Z-]+)=("[^"]*"|[^,]*)/g)].map((m) => [m[1], (m[2] ?? '').replace(/"/g, '')]))
    return [{ attributes, uri: lines[i + 1] ?? '' }]
  })
}

describe('processing a 6 s 1280×720 H.264/AAC MP4', { skip: mediaSkip }, () => {
  let root: string | undefined
  let tools: MediaTools
  let source: string
  let input: string

  before(async () => {
    root = await makeScratchDir()
    tools = await locateMediaTools({ env: process.env })
    source = await makeVideo(join(root, 'clip.mp4'), { width: 1280, height: 720, seconds: 6 })
    input = await jobInput(root, source, 'upload.mp4')
  })
  after(async () => { await removeScratchDir(root) })

  it('uses the system ffmpeg found on PATH', () => {
    assert.equal(tools.kind, 'native')
    assert.match(tools.version, /^\d+\.\d+/)
  })

  it('probes the duration within 100 ms of ffprobe\'s own reading, and both streams', async () => {
    const probe = await probeMedia(tools, input)
    const checked = await checkMedia(source)
    assert.ok(Math.abs(probe.durationMs - checked.durationMs) <= 100, `${probe.durationMs} ms vs ffprobe's ${checked.durationMs} ms`)
    assert.equal(probe.container, 'mp4')
    assert.ok(probe.bitRate !== null && probe.bitRate > 0)
    const [video, audio] = probe.streams
    assert.deepEqual(
      { type: video?.type, codec: video?.codec, width: video?.width, height: video?.height, rotation: video?.rotation, displayWidth: video?.displayWidth, displayHeight: video?.displayHeight, frameRate: video?.frameRate },
      { type: 'video', codec: 'h264', width: 1280, height: 720, rotation: 0, displayWidth: 1280, displayHeight: 720, frameRate: 30 }
    )
    assert.deepEqual({ type: audio?.type, codec: audio?.codec, sampleRate: audio?.sampleRate, channels: audio?.channels }, { type: 'audio', codec: 'aac', sampleRate: 48000, channels: 1 })
    assert.equal(probe.streams.length, 2)
  })

  it('makes a decodable 640×360 JPEG preview from about 10 % in', async () => {
    const outDir = join(root as string, 'preview-out')
    const probe = await probeMedia(tools, input)
    const preview = await makePreview(tools, input, outDir, probe)
    assert.ok(preview !== null)
    assert.equal(preview.atMs, 600)
    const checked = await checkMedia(preview.file)
    assert.deepEqual(checked.streams.map((s) => [s.codec_name, s.width, s.height]), [['mjpeg', 640, 360]])
    assert.deepEqual([preview.width, preview.height], [640, 360])
    const bytes = await readFile(preview.file)
    assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG starts with SOI')
  })

  it('makes 360p first, publishes it in the master, then adds 720p; every playlist plays to the same duration', async () => {
    const outDir = join(root as string, 'hls-out')
    const probe = await probeMedia(tools, input)
    const ladder = planLadder(probe)
    assert.deepEqual(ladder.map((r) => [r.name, r.width, r.height]), [['360p', 640, 360], ['720p', 1280, 720]])

    const done: RenditionOutput[] = []
    const fractions: number[] = []
    done.push(await transcodeRendition(tools, input, outDir, ladder[0] as typeof ladder[0], { onProgress: (f) => fractions.push(f) }))
    assert.ok(fractions.length >= 2, 'progress is reported during the run and at its end')
    assert.deepEqual([...fractions].sort((a, b) => a - b), fractions, 'progress never goes back')
    assert.equal(fractions.at(-1), 1)
    assert.ok(fractions.every((f) => f >= 0 && f <= 1))

    const master = await writeMasterPlaylist(outDir, done)
    assert.equal(variants(await readFile(master, 'utf8')).length, 1, 'the master holds the one rendition made so far')
    const early = await checkMedia(master)
    assert.ok(Math.abs(early.durationMs - probe.durationMs) <= 100, `master with 360p: ${early.durationMs} ms`)

    done.push(await transcodeRendition(tools, input, outDir, ladder[1] as typeof ladder[1]))
    await writeMasterPlaylist(outDir, done)
    const text = await readFile(master, 'utf8')
    const listed = variants(text)
    assert.deepEqual(listed.map((v) => v.uri), ['360p/index.m3u8', '720p/index.m3u8'])
    assert.deepEqual(listed.map((v) => v.attributes.RESOLUTION), ['640x360', '1280x720'])

    for (const [i, output] of done.entries()) {
      const { attributes } = listed[i] as typeof listed[0]
      const playlist = join(outDir, output.uri)
      const checked = await checkMedia(playlist)
      assert.ok(Math.abs(checked.durationMs - probe.durationMs) <= 100, `${output.rendition.name}: ${checked.durationMs} ms vs ${probe.durationMs} ms`)
      const video = checked.streams.find((s) => s.codec_type === 'video')
      const audio = checked.streams.find((s) => s.codec_type === 'audio')
      // CODECS must name what was written: avc1.64 = High, then the level in hex; mp4a.40.2 = AAC-LC.
      const [avc, mp4a] = (attributes.CODECS ?? '').split(',')
      assert.equal(video?.profile, 'High')
      assert.equal(avc, `avc1.6400${(video?.level ?? 0).toString(16)}`)
      assert.equal(mp4a, 'mp4a.40.2')
      assert.equal(audio?.profile, 'LC')
      assert.equal(attributes.RESOLUTION, `${video?.width}x${video?.height}`)
      // BANDWIDTH is the measured peak: at least the mean rate of the segments on disk.
      const names = (await readdir(output.directory)).filter((n) => n.endsWith('.ts')).sort()
      assert.deepEqual(names, output.files.slice(1))
      const bytes = (await Promise.all(names.map(async (n) => (await readFile(join(output.directory, n))).length))).reduce((a, b) => a + b, 0)
      const mean = bytes * 8 / (output.durationMs / 1000)
      assert.ok(Number(attributes.BANDWIDTH) >= Math.floor(mean), `BANDWIDTH ${attributes.BANDWIDTH} < mean ${mean}`)
      assert.ok(Math.abs(Number(attributes['AVERAGE-BANDWIDTH']) - mean) <= 1)
    }
    const played = await decodeAll(master)
    assert.ok(Math.abs(played - probe.durationMs) <= 100, `the master decodes to ${played} ms`)
    assert.ok(Math.abs((await checkMedia(master)).durationMs - probe.durationMs) <= 100)
  })
})
