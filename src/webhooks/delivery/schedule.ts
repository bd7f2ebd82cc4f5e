/**
 * The pause before each retry (ms), about 23 hours in all over 15 attempts: the first attempt at once,
 * then 5 s, 30 s, 2 min, 5 min, 10 min, 20 min, 40 min, 1 h, 2 h, 3 h and four of 4 h (docs/webhooks.md).
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 30_000, 120_000, 300_000, 600_000, 1_200_000, 2_400_000, 3_600_000, 7_200_000, 10_800_000,
  14_400_000, 14_400_000, 14_400_000, 14_400_000
]

/** A retry's pause after `attempts` failed attempts, ±20 % jitter; undefined when the schedule is used up. */
export function retryDelay (schedule: readonly number[], attempts: number, random: () => number = Math.random): number | undefined {
  const base = schedule[attempts - 1]
  if (base === undefined) return undefined
  return Math.round(base * (0.8 + 0.4 * random()))
}

/** An endpoint whose every attempt failed this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000
