import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { defaultLimits, locateMediaTools, MediaToolsUnavailableError, type MediaLogger } from '../../../src/media/processing/index.ts'
import { makeScratchDir, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'

function recordingLogger (): MediaLogger & { lines: Array<{ level: string, msg: string, obj: object }> } {
  const lines: Array<{ level: string, msg: string, obj: object }> = []
  return {
    lines,
    info: (obj, msg) => { lines.push({ level: 'info', msg, obj }) },
    warn: (obj, msg) => { lines.push({ level: 'warn', msg, obj }) }
  }
}

/** Where the system has a program, as `command -v` would say. */
function which (name: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim()
  assert.ok(found !== '', `${name} is on PATH`)
  return found
}

describe('finding ffmpeg', { skip: mediaSkip }, () => {
  let root: string
  let ffmpeg: string
  let ffprobe: string
  /** A PATH that holds no ffmpeg (only prlimit, when the system has it). */
  let hiddenPath: string

  before(async () => {
    root = await makeScratchDir()
    ffmpeg = which('ffmpeg')
    ffprobe = which('ffprobe')
    hiddenPath = join(root, 'bin-without-ffmpeg')
    await mkdir(hiddenPath)
    const prlimit = spawnSync('sh', ['-c', 'command -v prlimit'], { encoding: 'utf8' }).stdout.trim()
    if (prlimit !== '') await symlink(prlimit, join(hiddenPath, 'prlimit'))
  })
  after(async () => { await removeScratchDir(root) })

  async function script (name: string, body: string): Promise<string> {
    const dir = join(root, `bin-${name}-${Math.random().toString(36).slice(2)}`)
    await mkdir(dir)
    const file = join(dir, name)
    await writeFile(file, `#!/bin/sh\n${body}\n`)
    await chmod(file, 0o755)
    return file
  }

  it('takes ffmpeg and ffprobe from PATH, and logs which one and its version once', async () => {
    const logger = recordingLogger()
    const tools = await locateMediaTools({ env: { PATH: process.env.PATH }, logger })
    assert.equal(tools.kind, 'native')
    assert.ok(tools.kind === 'native' && tools.source === 'PATH' && tools.ffmpegPath === ffmpeg && tools.ffprobePath === ffprobe)
    assert.equal(logger.lines.length, 1)
    assert.match(logger.lines[0]?.msg ?? '', new RegExp(`^media tools: system ffmpeg ${tools.version.replace(/[.+]/g, '\\$&')} \\(${ffmpeg}, from PATH\\)`))
    assert.deepEqual(tools.limits, defaultLimits())
  })

  it('takes FFMPEG_PATH (and the ffprobe beside it) over PATH', async () => {
    const tools = await locateMediaTools({ env: { PATH: hiddenPath, FFMPEG_PATH: ffmpeg } })
    assert.ok(tools.kind === 'native')
    assert.deepEqual([tools.source, tools.ffmpegPath, tools.ffprobePath], ['FFMPEG_PATH', ffmpeg, join(dirname(ffmpeg), 'ffprobe')])
  })

  it('refuses an FFMPEG_PATH or FFPROBE_PATH that does not exist, is not ffmpeg, or does not run', async () => {
    const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
      [{ FFMPEG_PATH: join(root, 'nowhere', 'ffmpeg') }, /^FFMPEG_PATH \(.*nowhere\/ffmpeg\) is not an executable file$/],
      [{ FFMPEG_PATH: ffprobe, FFPROBE_PATH: ffprobe }, /^FFMPEG_PATH \(.*\) is not ffmpeg: its -version output does not name it$/],
      [{ FFMPEG_PATH: ffmpeg, FFPROBE_PATH: await script('ffprobe', 'exit 3') }, /^FFPROBE_PATH \(.*\) does not run \(exit code 3\)$/],
      [{ FFMPEG_PATH: await script('ffmpeg', 'echo "ffmpeg version 9.9"'), FFPROBE_PATH: ffprobe }, /^FFMPEG_PATH \(.*\) has no libx264 encoder$/]
    ]
    for (const [env, message] of cases) {
      await assert.rejects(locateMediaTools({ env: { PATH: process.env.PATH, ...env } }), (error) => {
        assert.ok(error instanceof MediaToolsUnavailableError)
        assert.match(error.message, message)
        return true
      })
    }
  })

  it('falls back to the bundled wasm build when PATH has no ffmpeg, and says why a system ffmpeg is better', async () => {
    const logger = recordingLogger()
    const tools = await locateMediaTools({ env: { PATH: hiddenPath }, logger })
    assert.ok(tools.kind === 'wasm')
    assert.match(tools.version, /^5\.1\./)
    assert.equal(tools.corePackageVersion, '0.12.10')
    assert.ok(tools.coreDir.includes(join('node_modules', '@ffmpeg', 'core')), 'the installed package, nothing downloaded')
    assert.equal(logger.lines.length, 1)
    const [line] = logger.lines
    assert.equal(line?.level, 'warn')
    assert.match(line?.msg ?? '', /WebAssembly ffmpeg 5\.1\.\d+ \(@ffmpeg\/core 0\.12\.10\), because no ffmpeg and ffprobe on PATH/)
    assert.match(line?.msg ?? '', /about 3\.3× faster/)
    assert.match(line?.msg ?? '', /no input size cap/)
    assert.match(line?.msg ?? '', /refuses files over 1024 MB/)
  })

  it('falls back to wasm, saying so, when the ffmpeg on PATH does not run', async () => {
    const broken = dirname(await script('ffmpeg', 'exit 1'))
    await symlink(ffprobe, join(broken, 'ffprobe'))
    const tools = await locateMediaTools({ env: { PATH: broken } })
    assert.equal(tools.kind, 'wasm')
    assert.match(tools.summary, /because ffmpeg on PATH \(.*\) does not run \(exit code 1\)/)
  })
})
