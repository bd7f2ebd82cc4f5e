import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { closeSync, constants, openSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { makeScratchDir, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { finished, startStack, upload, type Stack } from './support.ts'

/**
 * Uploads that try to make ffmpeg fetch something: HLS playlists and concat lists pointing at http://,
 * file: and a file elsewhere on disk. Each ends `error`; a local HTTP server counts the connections (0),
 * and the "file elsewhere" is a FIFO: a process opening it for reading blocks until a writer comes, and
 * a non-blocking open for writing succeeds only while a reader has it open, so polling it during the
 * whole job catches any read for certain (no reliance on atime).
 */
describe('hostile uploads through the whole service', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  let server: Server
  let connections = 0
  let port: number
  let fifo: string

  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'cdn', 'worker'])
    server = createServer((_req, res) => { res.end('#EXTM3U\n') })
    server.on('connection', () => { connections++ })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    await mkdir(join(root, 'elsewhere'))
    fifo = join(root, 'elsewhere', 'secret.ts')
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo')
  })
  after(async () => {
    await stack?.close()
    await new Promise((resolve) => server.close(resolve))
    await removeScratchDir(root)
  })

  /** Uploads `content` and waits for the asset to finish, watching the FIFO all along. */
  async function process (name: string, content: string): Promise<{ asset: any, fifoOpened: boolean }> {
    const file = join(root, name)
    await writeFile(file, content)
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
    let asset: any
    try {
      asset = await finished(stack, await upload(stack, file))
    } finally {
      running = false
      await watch
    }
    return { asset, fifoOpened }
  }

  const segment = (uri: string): string => `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n${uri}\n#EXT-X-ENDLIST\n`
  const cases: Array<[string, string, () => string]> = [
    ['an HLS playlist pointing at http://', 'remote.m3u8', () => segment(`http://127.0.0.1:${port}/segment.ts`)],
    ['an HLS playlist pointing at file:', 'file-url.mp4', () => segment(`file://${fifo}`)],
    ['an HLS playlist pointing at a file elsewhere on disk', 'absolute.mp4', () => segment(fifo)],
    ['an HLS playlist pointing at a file by a relative path', 'relative.mp4', () => segment(`../../../../${fifo}`)],
    ['a concat list pointing at http://', 'list.mp4', () => `ffconcat version 1.0\nfile 'http://127.0.0.1:${port}/clip.mp4'\n`],
    ['a concat list pointing at a file elsewhere on disk', 'list2.mp4', () => `ffconcat version 1.0\nfile '${fifo}'\n`]
  ]
  for (const [what, name, content] of cases) {
    it(`ends ${what} in error, with no request made and no file read`, async () => {
      const { asset, fifoOpened } = await process(name, content())
      assert.equal(asset.status, 'error')
      assert.match(asset.processing_error, /^The file is not a video or audio file we can read \(/)
      assert.equal(connections, 0, 'connections to the local HTTP server')
      assert.equal(fifoOpened, false, 'the FIFO elsewhere on disk was opened for reading')
    })
  }
})
