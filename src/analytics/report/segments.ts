import type { TimeSegment } from '../model.ts'

const HOUR = 3_600_000
const DAY = 86_400_000

/** `YYYY-MM-DD` (midnight UTC) or a UTC time `YYYY-MM-DDTHH:MM[:SS]Z`; undefined when malformed or not a real date. */
export function parseReportTime (text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?Z)?$/.exec(text)
  if (m === null) return undefined
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number)
  const ms = Date.UTC(year, month - 1, day, hour, minute, second)
  const back = new Date(ms)
  // Date.UTC rolls 2026-02-30 over into March: a date that does not round-trip does not exist.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined
  return ms
}

/** Start of the segment holding `ms`. Weeks start on Monday, as in the API family's reports and date_trunc('week'). */
export function segmentStart (ms: number, segment: Exclude<TimeSegment, 'total'>): number {
  switch (segment) {
    case 'hour': return Math.floor(ms / HOUR) * HOUR
    case 'day': return Math.floor(ms / DAY) * DAY
    case 'week': {
      const day = Math.floor(ms / DAY)
      return (day - ((day + 3) % 7 + 7) % 7) * DAY // 1970-01-01 was a Thursday
    }
    case 'month': {
      const d = new Date(ms)
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
    }
  }
}

export function segmentEnd (start: number, segment: Exclude<TimeSegment, 'total'>): number {
  switch (segment) {
    case 'hour': return start + HOUR
    case 'day': return start + DAY
    case 'week': return start + 7 * DAY
    case 'month': {
      const d = new Date(start)
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
    }
  }
}

/** The range widened to whole segments, as v3 reports do: a weekly report from a Wednesday starts on the Monday. */
export function widen (start: number, end: number, segment: TimeSegment): { start: number, end: number } {
  if (segment === 'total') return { start, end }
  const last = segmentStart(end - 1, segment)
  return { start: segmentStart(start, segment), end: segmentEnd(last, segment) }
}

/** How report times are shown: ISO 8601 UTC to the second, like every timestamp of the API (docs/resources.md). */
export function formatTime (ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + 'Z'
}

/** How the store is given a time: `YYYY-MM-DD HH:MM:SS.mmm`, no zone, read as a UTC `timestamp`. */
export function sqlTime (ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace('T', ' ')
}
