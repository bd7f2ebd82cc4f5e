/**
 * Credit windows: fixed one-minute windows aligned to the wall clock (docs/credits-and-cache.md), computed from
 * the injected clock so tests move time instead of sleeping.
 */
export const WINDOW_MS = 60_000

/** The window a moment belongs to, as a whole number of minutes since the epoch (used in keys). */
export function windowIndex (nowMs: number): number {
  return Math.floor(nowMs / WINDOW_MS)
}

/** Start of the window holding `nowMs`: floor(now / 60 s) * 60 s. */
export function windowStart (nowMs: number): number {
  return windowIndex(nowMs) * WINDOW_MS
}

/** Milliseconds until the current window ends, in (0, 60000]. */
export function msUntilReset (nowMs: number): number {
  return windowStart(nowMs) + WINDOW_MS - nowMs
}

/**
 * Whole seconds until the credits reset, rounded up: 1 to 60, never 0, so a client that waits the
 * announced time always lands in the next window. The boundary instant belongs to the new window
 * (floor), so at exactly hh:mm:00.000 the answer is 60, not 0 or 1.
 */
export function resetSeconds (nowMs: number): number {
  return Math.ceil(msUntilReset(nowMs) / 1000)
}
