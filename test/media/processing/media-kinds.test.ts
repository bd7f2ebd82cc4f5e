import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  locateMediaTools, makePreview, masterPlaylist, planLadder, probeMedia, transcodeRendition, type MediaTools
} from '../../../src/media/processing/index.ts'
import {
  checkMedia, decodeAll, jobInput, makeAudio, makeScratchDir, makeStreamedWebm, makeVideo, meanLuma, mediaSkip, removeScratchDir
} from '../../support/media-fixtures.ts'

describe('media of every kind', { skip: mediaSkip }, () => {
  let root: string
  let tools: MediaTools

  before(async () => {
    root = await makeScratchDir()
    tools = await locateMediaTools({ env: process.env })
  })
  after(async () => { await removeScratchDir(root) })

  it('a video without audio gets a ladder without an audio map, and plays', async () => {
    const input = await jobInput(root, await makeVideo(join(root, 'silent.mp4'), { width: 640, height: 360, seconds: 3, audio: false }))
    const probe = await probeMedia(tools, input)
    assert.deepEqual(probe.streams.map((s) => s.type), ['video'])
    const [rendition, ...rest] = planLadder(probe)
    assert.equal(rest.length, 0)
    assert.deepEqual([rendition?.audioStreamIndex, rendition?.audioBitRate, rendition?.codecs], [null, null, 'avc1.64001e'])
    const output = await transcodeRendition(tools, input, join(root, 'silent-out'), rendition as NonNullable<typeof rendition>)
    const checked = await checkMedia(join(output.directory, 'index.m3u8'))
    assert.deepEqual(checked.streams.map((s) => s.codec_type), ['video'])
    assert.ok(Math.abs(checked.durationMs - probe.durationMs) <= 100)
    assert.doesNotMatch(masterPlaylist([output]), /mp4a/)
    assert.ok((await makePreview(tools, input, join(root, 'silent-out'), probe)) !== null)
  })

  it('an audio-only file gets one audio-only AAC rendition and no preview', async () => {
    const input = await jobInput(root, await makeAudio(join(root, 'tone.mp3'), 4))
    const probe = await probeMedia(tools, input)
    assert.equal(probe.container, 'mp3')
    assert.ok(Math.abs(probe.durationMs - (await checkMedia(input)).durationMs) <= 100)
    assert.deepEqual(probe.streams.map((s) => [s.type, s.codec, s.sampleRate]), [['audio', 'mp3', 44100]])
    assert.equal(await makePreview(tools, input, join(root, 'tone-out'), probe), null)

    const ladder = planLadder(probe)
    assert.deepEqual(ladder.map((r) => [r.name, r.kind, r.codecs]), [['audio', 'audio', 'mp4a.40.2']])
    const output = await transcodeRendition(tools, input, join(root, 'tone-out'), ladder[0] as NonNullable<typeof ladder[0]>)
    const checked = await checkMedia(join(output.directory, 'index.m3u8'))
    assert.deepEqual(checked.streams.map((s) => [s.codec_type, s.codec_name, s.profile]), [['audio', 'aac', 'LC']])
    assert.ok(Math.abs(checked.durationMs - probe.durationMs) <= 100, `${checked.durationMs} vs ${probe.durationMs}`)
    const master = masterPlaylist([output])
    assert.match(master, /CODECS="mp4a\.40\.2"/)
    assert.doesNotMatch(master, /RESOLUTION/)
  })

  it('a rotated phone video comes out upright and portrait, in the renditions and the preview', async () => {
    // Stored 640×360 with its left half white; rotation metadata turns it a quarter.
    const input = await jobInput(root, await makeVideo(join(root, 'phone.mp4'), { width: 640, height: 360, seconds: 3, rotate: 90, picture: 'halves' }))
    const probe = await probeMedia(tools, input)
    const video = probe.streams[0]
    assert.deepEqual([video?.width, video?.height, video?.displayWidth, video?.displayHeight], [640, 360, 360, 640])
    assert.ok(video?.rotation === 90 || video?.rotation === 270)

    const ladder = planLadder(probe)
    assert.deepEqual(ladder.map((r) => [r.name, r.width, r.height]), [['360p', 360, 640]], 'the "p" number is the short side')
    const output = await transcodeRendition(tools, input, join(root, 'phone-out'), ladder[0] as NonNullable<typeof ladder[0]>)
    const segment = join(output.directory, output.files[1] as string)
    const preview = await makePreview(tools, input, join(root, 'phone-out'), probe)
    assert.ok(preview !== null)
    for (const file of [segment, preview.file]) {
      const picture = (await checkMedia(file)).streams.find((s) => s.codec_type === 'video')
      assert.ok((picture?.width ?? 0) < (picture?.height ?? 0), `${file} is ${picture?.width}×${picture?.height}`)
      // Upright, not stretched: the white half is now at the top or the bottom, and left equals right.
      const [top, bottom, left, right] = await Promise.all((['top', 'bottom', 'left', 'right'] as const).map(async (r) => await meanLuma(file, r)))
      assert.ok(Math.abs((top ?? 0) - (bottom ?? 0)) > 150, `top ${top}, bottom ${bottom}`)
      assert.ok(Math.abs((left ?? 0) - (right ?? 0)) < 30, `left ${left}, right ${right}`)
    }
  })

  it('a WebM without a duration in its header (as MediaRecorder writes it) is measured by reading it through', async () => {
    const input = await jobInput(root, await makeStreamedWebm(join(root, 'recorded.webm'), 3))
    assert.ok(Number.isNaN((await checkMedia(input)).durationMs), 'ffprobe finds no duration in this file')
    const played = await decodeAll(input)
    const probe = await probeMedia(tools, input)
    assert.equal(probe.container, 'webm')
    assert.ok(Math.abs(probe.durationMs - played) <= 100, `${probe.durationMs} ms vs ${played} ms decoded`)
  })

  it('the ladder is capped at the source: a 480p source gets 360p and one at its own size; 1080p gets three', async () => {
    const cases = [
      { width: 854, height: 480, expected: [['360p', 640, 360], ['480p', 854, 480]] },
      { width: 1920, height: 1080, expected: [['360p', 640, 360], ['720p', 1280, 720], ['1080p', 1920, 1080]] },
      { width: 720, height: 400, expected: [['360p', 648, 360]] },
      { width: 320, height: 240, expected: [['240p', 320, 240]] }
    ]
    for (const c of cases) {
      const input = await jobInput(root, await makeVideo(join(root, `${c.width}x${c.height}.mp4`), { width: c.width, height: c.height, seconds: 1, audio: false }))
      const ladder = planLadder(await probeMedia(tools, input))
      assert.deepEqual(ladder.map((r) => [r.name, r.width, r.height]), c.expected, `${c.width}×${c.height}`)
      for (const r of ladder) assert.ok((r.width ?? 0) <= c.width && (r.height ?? 0) <= c.height, 'never upscaled')
      const rates = ladder.map((r) => r.videoBitRate ?? 0)
      assert.deepEqual([...rates].sort((a, b) => a - b), rates, 'lowest first')
    }
  })

  it('every ordinary container probes through the format whitelist, extension or not', async () => {
    const video = ['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10', '-f', 'lavfi', '-i', 'sine=sample_rate=44100', '-t', '1']
    const audio = ['-f', 'lavfi', '-i', 'sine=sample_rate=44100', '-t', '1']
    const cases: Array<[string, string[], string]> = [
      ['phone.mov', [...video, '-c:v', 'libx264', '-c:a', 'aac'], 'mov'],
      ['old-phone.3gp', [...video, '-c:v', 'libx264', '-c:a', 'aac', '-f', '3gp'], '3gp'],
      ['screen.mkv', [...video, '-c:v', 'libx264', '-c:a', 'aac'], 'mkv'],
      ['browser.webm', [...video, '-c:v', 'libvpx', '-c:a', 'libopus', '-ar', '48000'], 'webm'],
      ['camcorder.mts', [...video, '-c:v', 'libx264', '-c:a', 'aac', '-f', 'mpegts'], 'mpegts'],
      ['old.avi', [...video, '-c:v', 'mpeg4', '-c:a', 'libmp3lame'], 'avi'],
      ['old.flv', [...video, '-c:v', 'flv1', '-c:a', 'libmp3lame'], 'flv'],
      ['old.wmv', [...video, '-c:v', 'wmv2', '-c:a', 'wmav2'], 'asf'],
      ['dvd.mpg', [...video, '-c:v', 'mpeg2video', '-c:a', 'mp2'], 'mpeg'],
      ['open.ogv', [...video, '-c:v', 'libtheora', '-c:a', 'libvorbis'], 'ogg'],
      ['memo.m4a', [...audio, '-c:a', 'aac'], 'm4a'],
      ['song.wav', audio, 'wav'],
      ['song.flac', audio, 'flac'],
      ['song.aac', [...audio, '-c:a', 'aac'], 'aac'],
      ['song.aiff', audio, 'aiff'],
      ['voice.opus', [...audio, '-c:a', 'libopus', '-ar', '48000'], 'ogg']
    ]
    for (const [name, args, container] of cases) {
      const made = join(root, name)
      assert.equal(spawnSync('ffmpeg', ['-nostdin', '-v', 'error', ...args, made]).status, 0, `making ${name}`)
      // Uploads often arrive without a usable extension: the contents decide.
      const probe = await probeMedia(tools, await jobInput(root, made, 'upload'))
      assert.equal(probe.container, container, name)
      assert.ok(probe.durationMs > 800 && probe.durationMs < 1200, `${name}: ${probe.durationMs} ms`)
    }
  })

  it('a 120 fps source is brought down to 60 fps, at the level that frame rate needs', async () => {
    const input = await jobInput(root, await makeVideo(join(root, 'fast.mp4'), { width: 640, height: 360, seconds: 1, frameRate: 120, audio: false }))
    const [rendition] = planLadder(await probeMedia(tools, input))
    assert.deepEqual([rendition?.maxFrameRate, rendition?.level], [60, '3.1'])
    const output = await transcodeRendition(tools, input, join(root, 'fast-out'), rendition as NonNullable<typeof rendition>)
    const text = await readFile(join(output.directory, 'index.m3u8'), 'utf8')
    assert.match(text, /#EXT-X-ENDLIST/)
    const checked = await checkMedia(join(output.directory, output.files[1] as string))
    assert.equal(checked.streams[0]?.level, 31)
  })
})
