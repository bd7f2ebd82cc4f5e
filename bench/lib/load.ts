import autocannon from 'autocannon'

export interface LoadOptions {
  url: string
  /** Requests of one run: method/path/body; `setupRequest` may re-sign each one. */
  requests?: autocannon.Request[]
  connections?: number
  pipelining?: number
  seconds?: number
  warmupSeconds?: number
  /** Fixed overall rate (requests/s): autocannon then corrects for coordinated omission. */
  rate?: number
  /** The server's CPU clock (`Child.cpuMs`): the result then says how much server CPU each request took. */
  serverCpuMs?: () => number
}

export interface LoadResult {
  requestsPerSecond: number
  p50: number
  p99: number
  latencyAvg: number
  non2xx: number
  errors: number
  total: number
  /** Server CPU time per answered request in µs (user + system), when `serverCpuMs` was given. */
  serverCpuMicros?: number
}

/** One closed-loop (or fixed-rate) run with autocannon after a warm-up at the same settings. */
export async function load (options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    connections: options.connections ?? 20,
    pipelining: options.pipelining ?? 1,
    ...(options.requests !== undefined ? { requests: options.requests } : {}),
    ...(options.rate !== undefined ? { overallRate: options.rate } : {})
  }
  if ((options.warmupSeconds ?? 3) > 0) await autocannon({ ...base, duration: options.warmupSeconds ?? 3 })
  const cpuBefore = options.serverCpuMs?.()
  const result = await autocannon({ ...base, duration: options.seconds ?? 10 })
  const cpuMs = cpuBefore === undefined ? undefined : (options.serverCpuMs as () => number)() - cpuBefore
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    latencyAvg: result.latency.average,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
    ...(cpuMs === undefined ? {} : { serverCpuMicros: Math.round(cpuMs * 1000 / Math.max(result.requests.total, 1)) })
  }
}
