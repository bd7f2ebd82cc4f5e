import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readdir, readFile, readlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  FORMAT_WHITELIST, locateMediaTools, MediaAbortedError, MediaTimeoutError, MediaToolError, planLadder, probeMedia, transcodeRendition,
  type MediaTools, type Rendition
} from '../../../src/media/processing/index.ts'
import { jobInput, makeScratchDir, makeVideo, mediaSkip, processesIn, removeScratchDir } from '../../support/media-fixtures.ts'

const linuxOnly = process.platform === 'linux' ? false : 'reads /proc (Linux only)'
const prlimitSkip = spawnSync('prlimit', ['--version'], { stdio: 'ignore' }).status === 0 ? false : 'needs util-linux prlimit on PATH'

/** The niceness of every thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
async function threadNiceness (pid: number): Promise<number[]> {
  const tids = await readdir(`/proc/${pid}/task`)
  return await Promise.all(tids.map(async (tid) => {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    // The command name in parentheses may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[16])
  }))
}

/** A limit's soft value from /proc/<pid>/limits ("unlimited" stays a string). */
async function limitOf (pid: number, name: string): Promise<string> {
  const line = (await readFile(`/proc/${pid}/limits`, 'utf8')).split('\n').find((l) => l.startsWith(name))
  return line?.slice(name.length).trim().split(/\s+/)[0] ?? 'missing'
}

describe('run limits', { skip: mediaSkip || linuxOnly }, () => {
  let root: string
  let tools: MediaTools
  let source: string
  let rendition720: Rendition

  before(async () => {
    root = await makeScratchDir()
    tools = await locateMediaTools({ env: process.env })
    source = await makeVideo(join(root, 'clip.mp4'), { width: 1280, height: 720, seconds: 6 })
    rendition720 = planLadder(await probeMedia(tools, await jobInput(root, source))).at(-1) as Rendition
    assert.equal(rendition720.name, '720p')
  })
  after(async () => { await removeScratchDir(root) })

  it('runs ffmpeg without a shell, stdin closed, niced on every thread, with the whitelists and a memory cap', async () => {
    const input = await jobInput(root, source)
    const controller = new AbortController()
    const running = transcodeRendition(tools, input, join(root, 'watched-out'), rendition720, { signal: controller.signal })
    let seen: { pid: number, nice: number[], cmdline: string[], parent: number, stdin: string, data: string, core: string, cpu: string } | undefined
    try {
      // Poll until the encoder is running with its threads, then look at it and stop it.
      while (seen === undefined) {
        const ffmpeg = (await processesIn(dirname(input))).find((p) => p.comm === 'ffmpeg')
        if (ffmpeg !== undefined) {
          const nice = await threadNiceness(ffmpeg.pid).catch(() => [])
          if (nice.length > 1) {
            const status = await readFile(`/proc/${ffmpeg.pid}/status`, 'utf8')
            seen = {
              pid: ffmpeg.pid,
              nice,
              cmdline: (await readFile(`/proc/${ffmpeg.pid}/cmdline`, 'utf8')).split('\0'),
              parent: Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]),
              stdin: await readlink(`/proc/${ffmpeg.pid}/fd/0`),
              data: await limitOf(ffmpeg.pid, 'Max data size'),
              core: await limitOf(ffmpeg.pid, 'Max core file size'),
              cpu: await limitOf(ffmpeg.pid, 'Max cpu time')
            }
          }
        }
        if (seen === undefined) await new Promise((resolve) => setTimeout(resolve, 10))
      }
    } finally {
      controller.abort()
    }
    await assert.rejects(running, MediaAbortedError)

    assert.equal(seen.parent, process.pid, 'started by us directly, not through a shell')
    assert.equal(seen.stdin, '/dev/null')
    assert.ok(seen.nice.every((n) => n === tools.limits.niceness), `niceness of each thread: ${seen.nice.join(', ')}`)
    for (const flag of ['-nostdin', '-hide_banner']) assert.ok(seen.cmdline.includes(flag), flag)
    const at = (name: string): string | undefined => seen?.cmdline[seen.cmdline.indexOf(name) + 1]
    assert.equal(at('-protocol_whitelist'), 'file')
    assert.equal(at('-format_whitelist'), FORMAT_WHITELIST)
    assert.equal(seen.cmdline.find((a) => a.startsWith('file:')), `file:${input}`)
    if (tools.prlimitPath !== null) {
      assert.equal(seen.data, String(tools.limits.memoryLimitBytes))
      assert.equal(seen.core, '0')
      assert.notEqual(seen.cpu, 'unlimited', 'a CPU-time cap ends an orphaned run')
    }
    assert.deepEqual(await processesIn(dirname(input)), [], 'nothing is left running')
  })

  it('a run past its time limit is killed with a clear error, and no process is left', async () => {
    const input = await jobInput(root, source)
    await assert.rejects(transcodeRendition(tools, input, join(root, 'slow-out'), rendition720, { timeoutMs: 300 }), (error) => {
      assert.ok(error instanceof MediaTimeoutError)
      assert.equal(error.message, 'Making the 720p rendition took longer than its limit of 0.3 s and was stopped.')
      return true
    })
    assert.deepEqual(await processesIn(dirname(input)), [])
  })

  it('the memory cap makes a run that needs more fail instead of growing', { skip: prlimitSkip }, async () => {
    const capped = await locateMediaTools({ env: process.env, memoryLimitBytes: 48 * 1024 * 1024 })
    assert.ok(capped.prlimitPath !== null, 'util-linux prlimit is on PATH here')
    const input = await jobInput(root, source)
    await assert.rejects(transcodeRendition(capped, input, join(root, 'capped-out'), rendition720), (error) => {
      assert.ok(error instanceof MediaToolError, String(error))
      assert.match(error.message, /^Making the 720p rendition (failed|was ended by)/)
      assert.ok((error.detail ?? '') !== '', 'ffmpeg\'s words are kept for the operator')
      return true
    })
    // The same run under the default cap succeeds: the cap alone made the difference.
    const output = await transcodeRendition(tools, input, join(root, 'uncapped-out'), rendition720)
    assert.equal(output.rendition.name, '720p')
  })
})
