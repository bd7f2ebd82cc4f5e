import { segmentEnd, segmentStart, sqlTime } from '../report/segments.ts'
import { mergeRowsSql, PENDING, ROLLUPS, type Statement } from './rollup.ts'
import type { StoreDialect } from './store.ts'

/**
 * Compaction (docs/analytics.md, "Compaction"). Every write appends its own rollup rows, so an hour
 * that took a thousand writes holds a thousand rows of a busy key; merged, it holds one, as a rebuild
 * would write it. The pending hours of one account and day are merged in one transaction: their
 * hourly rows, the day's daily rows, and the marks removed, so a killed process leaves the marks for
 * the next pass and never half a merge.
 */
export interface PendingDay {
  accountId: string
  /** The day's start, and the first and the last pending hour's start (ms). */
  day: number
  first: number
  last: number
}

/** The pending hours that started before $1 (text), as epoch ms, in account and time order. */
export function pendingSql (dialect: StoreDialect): string {
  const ms = dialect === 'duckdb' ? 'epoch_ms(hour)' : 'CAST(extract(epoch FROM hour) * 1000 AS bigint)'
  return `SELECT DISTINCT account_id, ${ms} AS hour FROM ${PENDING.table} WHERE hour < CAST($1 AS TIMESTAMP) ORDER BY account_id, hour`
}

/** Hours as `pendingSql` reads them (in its order), grouped per account and day. */
export function pendingDays (rows: Array<Record<string, unknown>>): PendingDay[] {
  const days: PendingDay[] = []
  for (const row of rows) {
    const accountId = String(row.account_id)
    const hour = Number(row.hour)
    const day = segmentStart(hour, 'day')
    const current = days.at(-1)
    if (current?.accountId === accountId && current.day === day) current.last = hour
    else days.push({ accountId, day, first: hour, last: hour })
  }
  return days
}

/** What one transaction runs to merge one pending day: the marks go first, then each rollup's rows. */
export function compactDayStatements (dialect: StoreDialect, pending: PendingDay): Statement[] {
  const hours = [pending.accountId, sqlTime(pending.first), sqlTime(segmentEnd(pending.last, 'hour'))]
  const days = [pending.accountId, sqlTime(pending.day), sqlTime(segmentEnd(pending.day, 'day'))]
  return [
    { sql: `DELETE FROM ${PENDING.table} WHERE account_id = $1 AND hour >= CAST($2 AS TIMESTAMP) AND hour < CAST($3 AS TIMESTAMP)`, params: hours },
    ...ROLLUPS.flatMap((rollup) => mergeRowsSql(dialect, rollup, rollup.grain === 'hour' ? hours : days))
  ]
}
