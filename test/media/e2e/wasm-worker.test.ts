import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdir, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { startCli, type CliProcess } from '../../support/cli.ts'
import { checkMedia, makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { finished, pathOf, startStack, upload, type Stack } from './support.ts'

/**
 * A machine without ffmpeg still processes media: a worker process whose PATH has no ffmpeg says so at
 * start (the bundled WebAssembly build, and why a system ffmpeg is recommended) and makes the test clip
 * playable with it. The system ffmpeg only makes the clip and checks the result.
 */
describe('a worker without ffmpeg on PATH (the wasm fallback)', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  let worker: CliProcess | undefined
  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'cdn'])
  })
  after(async () => {
    await worker?.stop('SIGKILL')
    await stack?.close()
    await removeScratchDir(root)
  })

  it('processes the clip with the bundled build and says why a system ffmpeg is better', async () => {
    const bin = join(root, 'bin-without-ffmpeg')
    await mkdir(bin)
    const prlimit = spawnSync('sh', ['-c', 'command -v prlimit'], { encoding: 'utf8' }).stdout.trim()
    if (prlimit !== '') await symlink(prlimit, join(bin, 'prlimit'))
    worker = startCli(['serve', '--role', 'worker'], { ...stack.env, PATH: bin, LOG_LEVEL: 'warn' })
    await worker.waitFor(/^worker: media processing/)
    assert.ok(worker.stdout.some((line) => /WebAssembly|wasm/i.test(line) && /system ffmpeg/i.test(line)), worker.stdout.join('\n'))

    const source = await makeVideo(join(root, 'clip.mp4'), { width: 640, height: 360, seconds: 2 })
    const asset = await finished(stack, await upload(stack, source))
    assert.equal(asset.status, 'live', asset.processing_error)
    const sourceMs = (await checkMedia(source)).durationMs
    assert.ok(Math.abs(asset.duration - sourceMs) <= 100)
    const played = await checkMedia(stack.cdn + pathOf(asset.stream_urls.iphone))
    assert.ok(Math.abs(played.durationMs - sourceMs) <= 100, `${played.durationMs} vs ${sourceMs}`)
    // The wasm build makes the storyboard too (its sheets are copied out when the run ends).
    const storyboard = await (await fetch(stack.cdn + pathOf(asset.stream_urls.storyboard))).text()
    assert.match(storyboard, /\/storyboard\/sprite-00000\.jpg#xywh=0,0,160,90$/m)
  })
})
