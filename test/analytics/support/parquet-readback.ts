import { DuckDBInstance } from '@duckdb/node-api'
import { EVENT_KIND } from '../../../src/analytics/index.ts'
import type { AnalyticsStore } from '../../../src/analytics/store/store.ts'

/**
 * What an export must carry over unchanged: the count, the sums of the numbers, the texts given, and the
 * count of each kind of event (named as EVENT_KIND names them: `playthrough_25`, `error_fatal`…).
 */
export interface EventFigures { count: number, value: number, value2: number, codes: number, messages: number, sessions: number, kinds: Array<[string, number]> }

const KIND_NAME = new Map(Object.entries(EVENT_KIND).map(([name, kind]) => [kind as number, name]))
/** The file's spelling (event name, playthrough percent, error fatality) back as a kind's name. */
const FILE_KIND = "CASE WHEN event = 'playthrough' THEN 'playthrough_' || percent WHEN event = 'error' AND fatal THEN 'error_fatal' ELSE event END"

const FIGURES = 'COUNT(*) AS n, COALESCE(SUM(value), 0) AS v, COALESCE(SUM(value2), 0) AS v2, COUNT(code) AS codes, COUNT(message) AS messages, COUNT(DISTINCT session_id) AS sessions'

function figuresOf (totals: Record<string, unknown>, kinds: Array<Record<string, unknown>>): EventFigures {
  return {
    count: Number(totals.n), value: Number(totals.v), value2: Number(totals.v2), codes: Number(totals.codes), messages: Number(totals.messages), sessions: Number(totals.sessions),
    kinds: kinds.map((row): [string, number] => [typeof row.kind === 'string' ? row.kind : KIND_NAME.get(Number(row.kind)) ?? `kind_${String(row.kind)}`, Number(row.n)])
      .sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
  }
}

/** The store's figures for one account's events in a range (`YYYY-MM-DD`, end exclusive), as an export selects them. */
export async function storedFigures (store: AnalyticsStore, accountId: string, start: string, end: string): Promise<EventFigures> {
  const where = 'WHERE account_id = $1 AND time >= CAST($2 AS timestamp) AND time < CAST($3 AS timestamp)'
  const params = [accountId, `${start} 00:00:00`, `${end} 00:00:00`]
  const [totals] = await store.query(`SELECT ${FIGURES} FROM analytics_events ${where}`, params)
  return figuresOf(totals, await store.query(`SELECT kind, COUNT(*) AS n FROM analytics_events ${where} GROUP BY kind`, params))
}

/** The same figures read back from a Parquet file by a DuckDB of its own. */
export async function parquetFigures (file: string): Promise<EventFigures> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    const source = `read_parquet('${file.replace(/'/g, "''")}')`
    const [totals] = (await connection.runAndReadAll(`SELECT ${FIGURES} FROM ${source}`)).getRowObjectsJS()
    const kinds = (await connection.runAndReadAll(`SELECT ${FILE_KIND} AS kind, COUNT(*) AS n FROM ${source} GROUP BY 1`)).getRowObjectsJS()
    return figuresOf(totals, kinds)
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}
