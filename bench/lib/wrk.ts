import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { onLoadCore } from './pinning.ts'

const run = promisify(execFile)

export interface WrkOptions {
  url: string
  seconds: number
  connections?: number
  headers?: Record<string, string>
  /** The server's CPU clock in ms, for CPU time per request. */
  serverCpuMs?: () => number
}

export interface WrkResult {
  requestsPerSecond: number
  /** Transfer per second in MiB. */
  mibPerSecond: number
  p50Ms: number
  p99Ms: number
  total: number
  /** Answers of 400 and above, and socket errors (connect, read, write, timeout). */
  failed: number
  serverCpuMicros?: number
}

/** One closed-loop run of wrk (one thread, on the load generator's core) against `url`. */
export async function wrk (options: WrkOptions): Promise<WrkResult> {
  const args = ['-t1', `-c${options.connections ?? 10}`, `-d${options.seconds}s`, '--latency']
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`)
  args.push(options.url)
  const [command, pinned] = onLoadCore('wrk', args)
  const cpuBefore = options.serverCpuMs?.()
  const { stdout } = await run(command, pinned, { maxBuffer: 1024 * 1024 })
  const cpuMs = cpuBefore === undefined ? undefined : (options.serverCpuMs as () => number)() - cpuBefore
  const total = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout)
  const failed = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0) +
    (socket === null ? 0 : socket.slice(1).reduce((sum, n) => sum + Number(n), 0))
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    mibPerSecond: transfer(/Transfer\/sec:\s+([\d.]+)(\w+)/.exec(stdout)),
    p50Ms: latencyMs(/ 50%\s+([\d.]+)(\w+)/.exec(stdout)),
    p99Ms: latencyMs(/ 99%\s+([\d.]+)(\w+)/.exec(stdout)),
    total,
    failed,
    ...(cpuMs === undefined ? {} : { serverCpuMicros: Math.round(cpuMs * 1000 / Math.max(total, 1)) })
  }
}

function latencyMs (match: RegExpExecArray | null): number {
  if (match === null) return Number.NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
}

function transfer (match: RegExpExecArray | null): number {
  if (match === null) return 0
  const scale: Record<string, number> = { B: 1 / 2 ** 20, KB: 1 / 1024, MB: 1, GB: 1024 }
  return Number(match[1]) * (scale[match[2] as string] ?? 0)
}

/** CPU time (user + system) of any process by pid, in ms, from /proc (10 ms ticks). */
export function processCpuMs (pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}
