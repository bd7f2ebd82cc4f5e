// Scenario 5: the signed GET of scenario 1 with credits on against credits off, with the in-process
// counters and with Redis. Runs are interleaved so drift on a shared machine hits both sides.
import { measureSignedGet } from './signed-get.ts'
import { report } from './lib/report.ts'

const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

export async function measureCreditsOverhead (seconds = 8): Promise<Record<string, unknown>> {
  const off = await measureSignedGet({ seconds, env: { CREDITS_ENABLED: 'false', CREDITS_PER_MINUTE: '1000000000' } })
  const memory = await measureSignedGet({ seconds, env: { CREDITS_PER_MINUTE: '1000000000' } })
  const redis = await measureSignedGet({ seconds, env: { CREDITS_PER_MINUTE: '1000000000', REDIS_URL } })
  const rate = (f: typeof off): number => f.reelhouse.requestsPerSecond
  return { off: rate(off), memory: rate(memory), redis: rate(redis), memoryRatio: rate(memory) / rate(off), redisRatio: rate(redis) / rate(off) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureCreditsOverhead() as { memoryRatio: number, redisRatio: number }
  report({ scenario: '5a credits on (in-process) vs off', ratio: { value: figures.memoryRatio, of: 'req/s on / off', goal: '≥ 0.95', met: figures.memoryRatio >= 0.95 }, figures })
  report({ scenario: '5b credits on (Redis) vs off', ratio: { value: figures.redisRatio, of: 'req/s on / off', goal: '≥ 0.95', met: figures.redisRatio >= 0.95 }, figures })
}
