import { load, type LoadResult } from './load.ts'

/** One server under load in an interleaved comparison. */
export interface Contender {
  name: string
  url: string
  /** The server's CPU clock (`Child.cpuMs`), for CPU time per request. */
  cpuMs?: () => number
}

export interface InterleaveOptions {
  /** Rounds; in each, every contender is measured once, in the order given, on servers of its own. */
  rounds?: number
  seconds?: number
  connections?: number
  /** Fixed rate (requests/s) instead of a closed loop. */
  rate?: number
}

export interface Interleaved {
  /** Each contender's round whose throughput is the median of its rounds. */
  median: Record<string, LoadResult>
  /** Per contender, the median over rounds of (its req/s ÷ the first contender's req/s in the same round). */
  ratio: Record<string, number>
  /** Every round's req/s per contender, as measured. */
  rounds: Array<Record<string, number>>
}

/** The servers of one round, started afresh, and how to stop them. */
export interface RoundServers {
  contenders: Contender[]
  stop: () => Promise<void>
}

type RoundResults = Array<Record<string, LoadResult>>

/**
 * Measures contenders in alternating rounds (A B A B A B rather than A A A B B B), so that a shared
 * machine's drift, which can move one run by ±30 %, falls on every contender alike; ratios are taken
 * within a round and the median round is reported. Every server is started afresh for each round and
 * warmed up: a process keeps its luck for its lifetime on this machine (the same code measured 22 and
 * 39 µs of CPU a request in two processes), so one process per contender would let that luck decide
 * the whole comparison.
 */
export async function interleaveFresh (start: () => Promise<RoundServers>, options: InterleaveOptions = {}): Promise<Interleaved> {
  const results: RoundResults = []
  let first = ''
  for (let round = 0; round < (options.rounds ?? 3); round++) {
    const servers = await start()
    try {
      first = servers.contenders[0].name
      // Each round starts with the next contender, so no contender is always measured first.
      const n = servers.contenders.length
      results.push(await measureRound(servers.contenders.map((_, i) => servers.contenders[(i + round) % n]), 2, options))
    } finally {
      await servers.stop()
    }
  }
  return summarise(first, results)
}

/**
 * Warms every contender up before measuring any: contenders that share a process (scenario 1's rungs,
 * scenario 5's gates) share code, and the one measured right after a cold start ran 25 % slower.
 */
async function measureRound (contenders: Contender[], warmupSeconds: number, options: InterleaveOptions): Promise<Record<string, LoadResult>> {
  for (const c of contenders) {
    await load({ url: c.url, seconds: warmupSeconds, warmupSeconds: 0, connections: options.connections ?? 10, rate: options.rate })
  }
  const round: Record<string, LoadResult> = {}
  for (const c of contenders) {
    round[c.name] = await load({
      url: c.url,
      seconds: options.seconds ?? 8,
      warmupSeconds: 0,
      connections: options.connections ?? 10,
      rate: options.rate,
      serverCpuMs: c.cpuMs
    })
  }
  return round
}

function summarise (first: string, results: RoundResults): Interleaved {
  const names = Object.keys(results[0] ?? {})
  const rounds = results.map((round) => Object.fromEntries(names.map((name) => [name, round[name].requestsPerSecond])))
  const median: Interleaved['median'] = {}
  const ratio: Interleaved['ratio'] = {}
  for (const name of names) {
    // A fast error would flatter a run: any failed answer, of any contender in any round, fails the comparison.
    const failed = results.reduce((sum, round) => sum + round[name].non2xx + round[name].errors, 0)
    if (failed > 0) throw new Error(`${failed} failed answers from ${name}`)
    const runs = results.map((round) => round[name]).sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)
    median[name] = runs[Math.floor(runs.length / 2)]
    ratio[name] = medianOf(rounds.map((r) => r[name] / r[first]))
  }
  return { median, ratio, rounds }
}

function medianOf (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
