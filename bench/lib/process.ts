import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

export interface Child<T> {
  info: T
  pid: number
  /** Resident set size of the process now, in MiB (from /proc). */
  rssMiB: () => number
  stop: () => Promise<void>
}

/** Starts `script` in its own Node process (through tsx) and waits for its JSON "ready" line. */
export async function startChild<T> (script: string, env: Record<string, string>): Promise<Child<T>> {
  // BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=prof`) profiles the server: NODE_OPTIONS refuses --cpu-prof.
  const nodeArgs = (env.BENCH_NODE_ARGS ?? process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '')
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
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
