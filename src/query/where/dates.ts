/**
 * The span of time an ISO 8601 value in a `where` denotes, as bounds in the stored timestamp format
 * (ISO 8601 UTC with milliseconds, which sorts as text on both databases).
 *
 * A value covers the span of its last written unit: `'2013-01-04'` is that whole UTC day and
 * `'2013-01-04T00:20:36Z'` that whole second. The API shows timestamps to the second while rows store
 * milliseconds, so `created_at='2013-01-04T00:20:36Z'` must match the asset that displayed it.
 */
export interface DateSpan {
  /** Inclusive lower bound. */
  from: string
  /** Upper bound: exclusive, except at the end of year 9999 where no later text exists to compare with. */
  to: string
  toInclusive: boolean
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/
const MIN_MS = Date.parse('0000-01-01T00:00:00.000Z')
const END_MS = Date.parse('9999-12-31T23:59:59.999Z')

/** Returns the span, or undefined when `text` is not a valid ISO 8601 date or date-time. */
export function dateSpan (text: string): DateSpan | undefined {
  const m = ISO.exec(text)
  if (m === null) return undefined
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0))
  const fraction = m[7] ?? ''
  const date = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)))
  // Date rolls 2011-02-30 over to March; a value that does not survive the round trip is not a date.
  const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
    date.getUTCHours() === hour && date.getUTCMinutes() === minute && date.getUTCSeconds() === second
  if (!valid) return undefined
  const offset = zoneOffsetMs(m[8])
  if (offset === undefined) return undefined
  const step = m[4] === undefined ? 86_400_000 : m[6] === undefined ? 60_000 : fraction === '' ? 1000 : 10 ** Math.max(0, 3 - fraction.length)
  const from = date.getTime() - offset
  // Only years 0000–9999 have the fixed-width stored form that sorts as text.
  if (from < MIN_MS || from > END_MS) return undefined
  const to = from + step
  return to > END_MS
    ? { from: stored(from), to: stored(END_MS), toInclusive: true }
    : { from: stored(from), to: stored(to), toInclusive: false }
}

/** A time without a zone is read as UTC, the zone every timestamp of the API is shown in. */
function zoneOffsetMs (zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0
  const digits = zone.slice(1).replace(':', '')
  const hours = Number(digits.slice(0, 2))
  const minutes = Number(digits.slice(2) || '0')
  if (hours > 23 || minutes > 59) return undefined
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000
}

function stored (ms: number): string {
  return new Date(ms).toISOString()
}
