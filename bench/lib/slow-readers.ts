import { connect, type Socket } from 'node:net'

export interface SlowReadersOptions {
  /** A plain-HTTP URL every reader GETs. */
  url: string
  readers: number
  /** Bytes each reader takes off its socket per tick (every `tickMs`). */
  bytesPerTick?: number
  tickMs?: number
  /** The server's RSS in MiB, sampled while they read. */
  sample: () => number
  /** One request that must still be answered meanwhile (a signed API GET): its status. */
  probe: () => Promise<number>
  /** Stop after this long even if readers are still reading. */
  limitMs?: number
}

export interface SlowReadersOutcome {
  peakRssMiB: number
  probes: number
  probeStatuses: number[]
  probeP50Ms: number
  probeMaxMs: number
  /** Readers that read their whole answer before the limit. */
  finished: number
  bytesRead: number
}

/**
 * Players on slow links: `readers` sockets each send one GET and then take only `bytesPerTick` off the
 * socket per tick, so the kernel's buffers fill and the server has to hold back (backpressure).
 */
export async function slowReaders (options: SlowReadersOptions): Promise<SlowReadersOutcome> {
  const url = new URL(options.url)
  const bytesPerTick = options.bytesPerTick ?? 16 * 1024
  const sockets: Socket[] = []
  let finished = 0
  let bytesRead = 0
  let peak = options.sample()
  for (let i = 0; i < options.readers; i++) {
    const socket = connect(Number(url.port), url.hostname)
    socket.on('error', () => {})
    socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`)
    socket.pause()
    socket.once('end', () => { finished += 1 })
    sockets.push(socket)
  }
  const ticker = setInterval(() => {
    for (const socket of sockets) {
      const chunk = (socket.read(bytesPerTick) ?? socket.read()) as Buffer | null
      if (chunk !== null) bytesRead += chunk.length
    }
    peak = Math.max(peak, options.sample())
  }, options.tickMs ?? 250)
  const latencies: number[] = []
  const statuses: number[] = []
  const until = Date.now() + (options.limitMs ?? 60_000)
  try {
    while (finished < options.readers && Date.now() < until) {
      const started = performance.now()
      statuses.push(await options.probe())
      latencies.push(performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  } finally {
    clearInterval(ticker)
    for (const socket of sockets) socket.destroy()
  }
  latencies.sort((a, b) => a - b)
  return {
    peakRssMiB: Math.round(peak),
    probes: latencies.length,
    probeStatuses: [...new Set(statuses)],
    probeP50Ms: Math.round(latencies[Math.floor(latencies.length / 2)] ?? Number.NaN),
    probeMaxMs: Math.round(latencies.at(-1) ?? Number.NaN),
    finished,
    bytesRead
  }
}
