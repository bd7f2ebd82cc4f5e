// Scenario 5: the signed GET of scenario 1 with credits on against credits off, with the in-process
// counters and with Redis. The three gates serve from one process (bench/servers/credits-trio.ts), so
// they share its luck; they are measured in alternating rounds, the process started afresh each round.
import { call, createBenchPlayer, fixedSignedPath } from './lib/client.ts'
import { interleaveFresh } from './lib/interleave.ts'
import { report } from './lib/report.ts'
import { startCreditsTrio } from './lib/servers.ts'

const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const GATES = ['off', 'memory', 'redis'] as const

export async function measureCreditsOverhead (seconds = 8): Promise<{ memoryRatio: number, redisRatio: number } & Record<string, unknown>> {
  const measured = await interleaveFresh(async () => {
    const trio = await startCreditsTrio({ BENCH_REDIS_URL: REDIS_URL })
    try {
      const path = await createBenchPlayer(trio.targets.memory)
      const signed = fixedSignedPath(trio.targets.memory, 'GET', path)
      for (const gate of GATES) {
        const first = await call(trio.targets[gate], 'GET', path, undefined, signed)
        if (first.status !== 200) throw new Error(`the GET with credits ${gate} answered ${first.status}`)
      }
      return { contenders: GATES.map((gate) => ({ name: gate, url: trio.targets[gate].base + signed })), stop: trio.stop }
    } catch (error) {
      await trio.stop()
      throw error
    }
  }, { seconds })
  const rate = (name: string): number => measured.median[name].requestsPerSecond
  return {
    off: rate('off'),
    memory: rate('memory'),
    redis: rate('redis'),
    memoryRatio: measured.ratio.memory,
    redisRatio: measured.ratio.redis,
    rounds: measured.rounds
  }
}

/** The two ratio lines (in-process, Redis) against the goal. */
export function reportCreditsOverhead (figures: Awaited<ReturnType<typeof measureCreditsOverhead>>): void {
  report({ scenario: '5a credits on (in-process) vs off', ratio: { value: figures.memoryRatio, of: 'req/s on / off', goal: '≥ 0.95', met: figures.memoryRatio >= 0.95 }, figures })
  report({ scenario: '5b credits on (Redis) vs off', ratio: { value: figures.redisRatio, of: 'req/s on / off', goal: '≥ 0.95', met: figures.redisRatio >= 0.95 }, figures })
}

if (import.meta.url === `file://${process.argv[1]}`) reportCreditsOverhead(await measureCreditsOverhead())
