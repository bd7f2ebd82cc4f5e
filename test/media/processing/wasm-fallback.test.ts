import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdir, symlink } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  locateMediaTools, makePreview, MediaRejectedError, MediaTimeoutError, planLadder, probeMedia, transcodeRendition,
  writeMasterPlaylist, type MediaTools, type WasmMediaTools
} from '../../../src/media/processing/index.ts'
import { checkMedia, decodeAll, jobInput, jobInputWith, makeScratchDir, makeVideo, mediaSkip, processesIn, removeScratchDir } from '../../support/media-fixtures.ts'

/**
 * With ffmpeg hidden from PATH the engine runs the bundled WebAssembly build. The system ffmpeg is
 * used here only to make the clip and, as an independent checker, to read back what the wasm build wrote.
 */
describe('the wasm fallback, with ffmpeg hidden from PATH', { skip: mediaSkip }, () => {
  let root: string
  let tools: MediaTools
  let native: MediaTools
  let source: string

  before(async () => {
    root = await makeScratchDir()
    const bin = join(root, 'bin-without-ffmpeg')
    await mkdir(bin)
    const prlimit = spawnSync('sh', ['-c', 'command -v prlimit'], { encoding: 'utf8' }).stdout.trim()
    if (prlimit !== '') await symlink(prlimit, join(bin, 'prlimit'))
    tools = await locateMediaTools({ env: { PATH: bin } })
    native = await locateMediaTools({ env: process.env })
    source = await makeVideo(join(root, 'clip.mp4'), { width: 1280, height: 720, seconds: 6 })
  })
  after(async () => { await removeScratchDir(root) })

  it('picks the wasm build', () => {
    assert.equal(tools.kind, 'wasm')
  })

  it('probes, makes the preview and the 360p rendition, which ffprobe reads to the right duration', async () => {
    const input = await jobInput(root, source, 'upload.mp4')
    const probe = await probeMedia(tools, input)
    const nativeProbe = await probeMedia(native, input)
    assert.deepEqual(probe, nativeProbe, 'the same probe result as the system ffprobe gives through the engine')
    assert.ok(Math.abs(probe.durationMs - (await checkMedia(source)).durationMs) <= 100)

    const outDir = join(root, 'wasm-out')
    const preview = await makePreview(tools, input, outDir, probe)
    assert.ok(preview !== null)
    assert.deepEqual((await checkMedia(preview.file)).streams.map((s) => [s.codec_name, s.width, s.height]), [['mjpeg', 640, 360]])

    const lowest = planLadder(probe)[0]
    assert.equal(lowest?.name, '360p')
    const fractions: number[] = []
    const output = await transcodeRendition(tools, input, outDir, lowest as NonNullable<typeof lowest>, { onProgress: (f) => fractions.push(f) })
    assert.ok(fractions.length >= 2 && fractions.at(-1) === 1, `progress: ${fractions.join(', ')}`)
    const master = await writeMasterPlaylist(outDir, [output])
    for (const playlist of [join(output.directory, 'index.m3u8'), master]) {
      const checked = await checkMedia(playlist)
      assert.ok(Math.abs(checked.durationMs - probe.durationMs) <= 100, `${playlist}: ${checked.durationMs} ms`)
      assert.deepEqual(checked.streams.map((s) => [s.codec_type, s.codec_name]), [['video', 'h264'], ['audio', 'aac']])
    }
    assert.ok(Math.abs(await decodeAll(master) - probe.durationMs) <= 100)
  })

  it('refuses an HLS playlist pointing at a listener, which sees no connection', async () => {
    let connections = 0
    const server: Server = createServer((_req, res) => { res.end() })
    server.on('connection', () => { connections++ })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const input = await jobInputWith(root, 'video.m3u8', `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nhttp://127.0.0.1:${port}/a.ts\n#EXT-X-ENDLIST\n`)
      await assert.rejects(probeMedia(tools, input), (error) => {
        assert.ok(error instanceof MediaRejectedError)
        assert.equal(error.message, 'The file is not a video or audio file we can read (it is a playlist, a list of other files, or a format we do not accept).')
        return true
      })
      const clip = planLadder(await probeMedia(native, await jobInput(root, source)))[0]
      await assert.rejects(transcodeRendition(tools, input, join(root, 'hostile-out'), clip as NonNullable<typeof clip>), MediaRejectedError)
      assert.equal(connections, 0)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('refuses inputs over its size cap, saying why and what lifts it', async () => {
    const small = await locateMediaTools({ env: { PATH: join(root, 'bin-without-ffmpeg') }, wasmMaxInputBytes: 1024 * 1024 })
    const input = await jobInput(root, source)
    await assert.rejects(probeMedia(small, input), (error) => {
      assert.ok(error instanceof MediaRejectedError)
      assert.match(error.message, /^The file is \d+ MB; this server processes files up to 1 MB \(it has no system ffmpeg, and its built-in one holds the whole file in memory\)\.$/)
      return true
    })
    assert.ok((small as WasmMediaTools).recommendation.includes('refuses files over 1 MB'))
  })

  it('kills the wasm child at its time limit, leaving no process', async () => {
    const input = await jobInput(root, source)
    const rendition = planLadder(await probeMedia(native, input))[0]
    await assert.rejects(transcodeRendition(tools, input, join(root, 'slow-out'), rendition as NonNullable<typeof rendition>, { timeoutMs: 500 }), MediaTimeoutError)
    assert.deepEqual(await processesIn(dirname(input)), [])
  })
})
