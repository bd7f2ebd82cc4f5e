// Counting a server's instructions under callgrind (valgrind), for the benches that compare counts
// rather than req/s: bench/media-instructions.ts and bench/request-instructions.ts.
import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * The counting window of a server started with `--instr-atstart=no`: `warm` requests, then its counters
 * zeroed and instrumentation on, `requests` more on 10 connections, then a dump named `counted`.
 * callgrind_control is heard only while the process runs, so a trickle of requests keeps it busy
 * meanwhile; those after the zeroing fall in the window too. Answers how many requests the window held.
 */
export async function countWindow (pid: number, get: () => Promise<void>, warm: number, requests: number): Promise<number> {
  const many = async (n: number): Promise<void> => {
    let left = n
    await Promise.all(Array.from({ length: 10 }, async () => { while (left-- > 0) await get() }))
  }
  let done = 0
  const control = async (...args: string[]): Promise<void> => {
    let stop = false
    const trickle = (async () => { while (!stop) { await get(); done++ } })()
    try {
      // vgdb names its pipe after $HOST: the server's (its listening address), not this shell's.
      await run('callgrind_control', [...args, String(pid)], { env: { ...process.env, HOST: '127.0.0.1' } })
    } finally {
      stop = true
      await trickle
    }
  }
  await many(warm)
  await control('-z')
  await control('-i', 'on')
  const from = done
  await many(requests)
  done += requests
  await control('-d', 'counted')
  return done - from
}

/**
 * The newest dump of `<dir>/<base>` by process `pid` (`<base>.<pid>` for the first, `<base>.<pid>.<n>`
 * after), waited for: a large process takes a while to write it after callgrind_control has returned.
 */
export async function latestDump (dir: string, base: string, pid: number): Promise<string> {
  for (let waited = 0; ; waited += 500) {
    const dumps = readdirSync(dir).filter((name) => name === `${base}.${pid}` || name.startsWith(`${base}.${pid}.`))
      .sort((a, b) => statSync(join(dir, a)).mtimeMs - statSync(join(dir, b)).mtimeMs)
    if (dumps.length > 0) return join(dir, dumps[dumps.length - 1] as string)
    if (waited > 60_000) throw new Error(`no callgrind dump in ${dir}: ${readdirSync(dir).join(', ')}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** A dump's total instructions (its `summary:` or `totals:` line). */
export function dumpTotal (file: string): number {
  return Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'))?.[1] ?? Number.NaN)
}
