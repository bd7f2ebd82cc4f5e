import assert from 'node:assert/strict'
import { execFile, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, constants, openSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  locateMediaTools, makePreview, MediaRejectedError, planLadder, probeMedia, transcodeRendition,
  type MediaTools, type ProbeResult, type Rendition
} from '../../../src/media/processing/index.ts'
import { jobInput, jobInputWith, makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'

const unreadable = /^The file is not a video or audio file we can read \([a-z][^()]*\)\.$/

/** The message is for a person: one sentence, no ffmpeg dump, no path, no stack. */
function assertReadable (error: unknown, pattern: RegExp = unreadable): true {
  assert.ok(error instanceof MediaRejectedError, `expected MediaRejectedError, got ${String(error)}`)
  assert.match(error.message, pattern)
  assert.doesNotMatch(error.message, /\n|@ 0x|\/tmp|ffmpeg|ffprobe|at .*\.ts/)
  return true
}

describe('hostile and broken uploads', { skip: mediaSkip }, () => {
  let root: string
  let tools: MediaTools
  /** A real clip's probe and ladder, as a caller might pass them with the wrong file. */
  let probe: ProbeResult
  let rendition: Rendition
  let server: Server
  let connections = 0
  let port: number
  /** A FIFO outside every job folder: opening it for reading would block until a writer comes. */
  let fifo: string

  before(async () => {
    root = await makeScratchDir()
    tools = await locateMediaTools({ env: process.env })
    const clip = await jobInput(root, await makeVideo(join(root, 'clip.mp4'), { width: 640, height: 360, seconds: 2 }))
    probe = await probeMedia(tools, clip)
    rendition = planLadder(probe)[0] as Rendition
    server = createServer((_req, res) => { res.end('#EXTM3U\n') })
    server.on('connection', () => { connections++ })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    await mkdir(join(root, 'elsewhere'))
    fifo = join(root, 'elsewhere', 'secret.ts')
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo')
  })
  after(async () => {
    await new Promise((resolve) => server.close(resolve))
    await removeScratchDir(root)
  })

  /**
   * Runs `work` while watching the FIFO: a non-blocking open for writing succeeds only while some
   * process has it open for reading, and a reader blocks in open() until a writer comes, so a run that
   * tried to read it is caught here for certain (and is released by that open).
   */
  async function watchingFifo (work: () => Promise<void>): Promise<{ fifoOpened: boolean }> {
    let fifoOpened = false
    let running = true
    const watch = (async () => {
      while (running) {
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
          fifoOpened = true
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error
        }
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    })()
    try {
      await work()
    } finally {
      running = false
      await watch
    }
    return { fifoOpened }
  }

  /** Probe, preview and transcode must each refuse the input, while the FIFO is watched. */
  async function everyStepRejects (input: string): Promise<{ fifoOpened: boolean }> {
    const outDir = join(root, 'out', randomBytes(4).toString('hex'))
    return await watchingFifo(async () => {
      await assert.rejects(probeMedia(tools, input, { timeoutMs: 20_000 }), (e) => assertReadable(e))
      await assert.rejects(makePreview(tools, input, outDir, probe, { timeoutMs: 20_000 }), (e) => assertReadable(e))
      await assert.rejects(transcodeRendition(tools, input, outDir, rendition, { timeoutMs: 20_000 }), (e) => assertReadable(e))
    })
  }

  it('the watchers do catch a run that reads: ffprobe with only a protocol whitelist opens the FIFO and connects', async () => {
    // Shows the two checks below can fail: the same playlists, read without the demuxer whitelist.
    const local = await jobInputWith(root, 'canary.m3u8', `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n${fifo}\n#EXT-X-ENDLIST\n`)
    const remote = await jobInputWith(root, 'canary.m3u8', `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nhttp://127.0.0.1:${port}/segment.ts\n#EXT-X-ENDLIST\n`)
    const before = connections
    const { fifoOpened } = await watchingFifo(async () => {
      for (const input of [local, remote]) {
        await new Promise((resolve) => {
          execFile('ffprobe', ['-v', 'error', '-protocol_whitelist', 'file,http,tcp', input], { timeout: 20_000 }, resolve)
        })
      }
    })
    assert.equal(fifoOpened, true, 'the FIFO watcher saw the read')
    assert.ok(connections - before > 0, 'the listener saw the connection')
  })

  it('random bytes named .mp4 are refused with a readable reason', async () => {
    const input = await jobInputWith(root, 'holiday.mp4', randomBytes(200_000))
    await assert.rejects(probeMedia(tools, input), (error) => {
      assertReadable(error)
      assert.match((error as Error).message, /damaged or not in an audio or video format/)
      assert.ok((error as MediaRejectedError).detail !== undefined, 'ffmpeg\'s words are kept for the operator')
      return true
    })
    await everyStepRejects(input)
  })

  it('an empty file and a text file are refused', async () => {
    await assert.rejects(probeMedia(tools, await jobInputWith(root, 'empty.mp4', '')), (e) => assertReadable(e, /^The file is empty\.$/))
    await everyStepRejects(await jobInputWith(root, 'notes.mov', 'Dear diary,\nnothing to see here.\n'))
  })

  const playlists: Array<[string, string, (p: number, fifo: string) => string]> = [
    ['an HLS playlist pointing at an HTTP URL', 'video.m3u8', (p) => `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nhttp://127.0.0.1:${p}/segment.ts\n#EXT-X-ENDLIST\n`],
    ['an HLS playlist pointing at file:///', 'video.m3u8', (_p, f) => `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nfile://${f}\n#EXT-X-ENDLIST\n`],
    ['an HLS playlist pointing at another file on disk by absolute path', 'video.m3u8', (_p, f) => `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n${f}\n#EXT-X-ENDLIST\n`],
    ['an HLS playlist pointing at another file on disk by relative path', 'video.m3u8', () => '#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n../../elsewhere/secret.ts\n#EXT-X-ENDLIST\n'],
    ['an HLS playlist named .mp4 whose EXT-X-MAP is a local file', 'video.mp4', (_p, f) => `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI="${f}"\n#EXTINF:6.0,\n${f}\n#EXT-X-ENDLIST\n`],
    ['an ffconcat list pointing at an HTTP URL', 'list.mp4', (p) => `ffconcat version 1.0\nfile http://127.0.0.1:${p}/clip.mp4\n`],
    ['an ffconcat list pointing at file:///', 'list.txt', (_p, f) => `ffconcat version 1.0\nfile file://${f}\n`],
    ['an ffconcat list pointing at another file on disk', 'list.mp4', (_p, f) => `ffconcat version 1.0\nfile '${f}'\nfile ../../elsewhere/secret.ts\n`]
  ]
  for (const [name, fileName, content] of playlists) {
    it(`${name} is refused; no connection is made and no other file is opened`, async () => {
      const input = await jobInputWith(root, fileName, content(port, fifo))
      const before = connections
      const { fifoOpened } = await everyStepRejects(input)
      assert.equal(connections - before, 0, 'no connection to the listener')
      assert.equal(fifoOpened, false, 'nobody opened the file outside the job folder')
    })
  }

  it('a file with no video or audio stream (subtitles only) is refused', async () => {
    const srt = join(root, 'words.srt')
    await writeFile(srt, '1\n00:00:00,000 --> 00:00:02,000\nHello\n')
    const mkv = join(root, 'words.mkv')
    assert.equal(spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-i', srt, '-c', 'copy', mkv]).status, 0)
    const input = await jobInput(root, mkv)
    await assert.rejects(probeMedia(tools, input), (e) => assertReadable(e, /^The file has no video or audio stream\.$/))
  })

  it('a picture larger than 8192 pixels on a side is refused before any decoding', async () => {
    const wide = join(root, 'wide.mkv')
    const made = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'color=gray:size=8200x16:rate=1', '-frames:v', '1', '-c:v', 'rawvideo', '-pix_fmt', 'gray', wide])
    assert.equal(made.status, 0, made.stderr?.toString())
    const input = await jobInput(root, wide)
    await assert.rejects(probeMedia(tools, input), (e) => assertReadable(e, /^The video is 8200×16 pixels; the largest we process is 8192 pixels on a side/))
  })

  it('refuses to run in a job folder that holds anything but the input', async () => {
    const input = await jobInput(root, join(root, 'clip.mp4'))
    await writeFile(join(dirname(input), 'neighbour.ts'), 'x')
    await assert.rejects(probeMedia(tools, input), /must hold only the input file/)
    await assert.rejects(transcodeRendition(tools, input, join(root, 'out'), rendition), /must hold only the input file/)
    const alone = await jobInput(root, join(root, 'clip.mp4'))
    await assert.rejects(transcodeRendition(tools, alone, dirname(alone), rendition), /must be outside the input's folder/)
    await assert.rejects(makePreview(tools, alone, join(dirname(alone), 'sub'), probe), /must be outside the input's folder/)
    assert.deepEqual(await readdir(dirname(alone)), ['clip.mp4'], 'nothing was written into the job folder')
  })
})
