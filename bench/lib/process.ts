import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { onServerCore, pinLoadGenerator } from './pinning.ts'

export interface Child<T> {
  info: T
  pid: number
  /** Resident set size of the process now, in MiB (from /proc). */
  rssMiB: () => number
  /** CPU time the process has used so far (user + system), in milliseconds (from /proc, 10 ms ticks). */
  cpuMs: () => number
  stop: () => Promise<void>
}

/** Starts `script` in its own Node process (through tsx) and waits for its JSON "ready" line. */
export async function startChild<T> (script: string, env: Record<string, string>): Promise<Child<T>> {
  // BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=prof`) profiles the server: NODE_OPTIONS refuses --cpu-prof.
  const nodeArgs = (env.BENCH_NODE_ARGS ?? process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '')
  pinLoadGenerator()
  const [command, args] = onServerCore(process.execPath, [...nodeArgs, '--import', 'tsx', script])
  const child: ChildProcess = spawn(command, args, {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const lines = createInterface({ input: child.stdout! })
  const info = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => { reject(new Error(`${script} exited with ${String(code)} before it was ready`)) })
    lines.on('line', (line) => {
      if (line.startsWith('{"ready":true')) resolve(JSON.parse(line) as T)
    })
  })
  return {
    info,
    pid: child.pid as number,
    rssMiB: () => {
      const status = readFileSync(`/proc/${child.pid as number}/status`, 'utf8')
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
    },
    cpuMs: () => {
      // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised command name): utime and stime in ticks.
      const stat = readFileSync(`/proc/${child.pid as number}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return (Number(fields[11]) + Number(fields[12])) * 10
    },
    stop: async () => {
      if (child.exitCode !== null) return
      await new Promise<void>((resolve) => {
        child.once('exit', () => { resolve() })
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      })
    }
  }
}
