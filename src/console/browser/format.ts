/** `1:02:03` or `2:03` from milliseconds; an em dash when unknown. */
export function duration (ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—'
  const total = Math.round(ms / 1000)
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = String(total % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`
}

const numbers = new Intl.NumberFormat('en')
export function count (value: number): string {
  return numbers.format(value)
}

/** `YYYY-MM-DD` of a date, in UTC (reports are in UTC). */
export function isoDay (date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** The message to show for a failure: an API error's own `message`, else what went wrong. */
export function messageOf (error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
