import { UsageError } from './cli-error.ts'

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 }

/** Epoch seconds below this (2001-09-09) are taken for a forgotten unit, not for a time in 1970. */
const EPOCH_FLOOR = 1_000_000_000

/**
 * `sign --expires`: a duration from now (`90s`, `15m`, `1h`, `2d`) or a time in Unix seconds
 * (`1795000000`), as Unix seconds. Anything else is a usage error (exit code 2), never NaN.
 */
export function parseExpires (value: string, nowMs = Date.now()): number {
  const duration = /^(\d{1,9})([smhd])$/.exec(value.trim())
  if (duration !== null) return Math.floor(nowMs / 1000) + Number(duration[1]) * (UNIT_SECONDS[duration[2] as string] as number)
  if (/^\d{1,12}$/.test(value.trim())) {
    const seconds = Number(value)
    if (seconds >= EPOCH_FLOOR) return seconds
    throw new UsageError(`--expires ${value} is not a time: Unix seconds are 10 digits today (${Math.floor(nowMs / 1000)}); for a duration add its unit, e.g. ${value}s or ${value}m`)
  }
  throw new UsageError(`--expires must be a duration (90s, 15m, 1h, 2d) or Unix seconds (e.g. ${Math.floor(nowMs / 1000) + 900}), not ${JSON.stringify(value)}`)
}
