/** Time source, injectable so tests can move time without sleeping. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now: () => number
}

export const systemClock: Clock = { now: () => Date.now() }

/** A clock for tests: starts at `start` and moves only when told. */
export class ManualClock implements Clock {
  constructor (private current: number = Date.UTC(2026, 10, 22, 10, 0, 0)) {}
  now (): number { return this.current }
  advance (ms: number): void { this.current += ms }
  set (ms: number): void { this.current = ms }
}

/** ISO 8601 UTC with milliseconds: how timestamps are stored (sorts as text). */
export function storedTime (ms: number): string {
  return new Date(ms).toISOString()
}

/** ISO 8601 UTC to the second, as the API shows timestamps (`2026-11-22T10:00:00Z`). */
export function apiTime (stored: string | null): string | null {
  return stored === null ? null : stored.slice(0, 19) + 'Z'
}
