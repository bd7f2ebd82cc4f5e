import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { ManualClock } from '../../../src/lib/clock.ts'
import { openAnalytics, type Analytics, type AnalyticsOptions, type AnalyticsResources } from '../../../src/analytics/index.ts'

export type StoreName = 'duckdb' | 'postgres'

/** DuckDB always; PostgreSQL when TEST_DATABASE_URL is set (CI sets it, so there it must pass). */
export const STORES: Array<{ name: StoreName, skip: string | false }> = [
  { name: 'duckdb', skip: false },
  { name: 'postgres', skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set' }
]

/** Two accounts; `code-a` owns asset-1..3, `code-b` its own asset-1. Labels: see fixture.ts. */
export const resources: AnalyticsResources = {
  resolveAccount: (code) => ({ 'code-a': { accountId: 'acc-a' }, 'code-b': { accountId: 'acc-b' } })[code],
  assetExists: (account, asset) => account === 'acc-a' ? ['asset-1', 'asset-2', 'asset-3'].includes(asset) : account === 'acc-b' && asset === 'asset-1',
  labelsOf: (account) => new Map(account === 'acc-a'
    ? [['asset-1', ['lbl-parent', 'lbl-child']], ['asset-2', ['lbl-parent']]]
    : []),
  labelNames: (account) => new Map(account === 'acc-a' ? [['lbl-parent', 'Sports'], ['lbl-child', 'Hockey']] : [])
}

export const PAGE_KEY = 'test-page-token-key-0123456789'

export interface TestAnalytics {
  analytics: Analytics
  clock: ManualClock
  dir: string
  /** The URL and schema that reopen the same store. */
  url: string | undefined
  pgSchema: string | undefined
  /** Closes the engine (if open) and opens a new one on the same store and spool. */
  reopen: (overrides?: Partial<AnalyticsOptions>) => Promise<Analytics>
  /** Closes the engine, keeping the store and the data directory. */
  stop: () => Promise<void>
  /** Closes the engine and removes the store and the data directory. */
  close: () => Promise<void>
}

/** A fresh analytics engine on a fresh store: a DuckDB file in a temp dir, or a new PostgreSQL schema. */
export async function openTestAnalytics (store: StoreName, overrides: Partial<AnalyticsOptions> = {}): Promise<TestAnalytics> {
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-analytics-'))
  const clock = new ManualClock()
  const url = store === 'duckdb' ? undefined : process.env.TEST_DATABASE_URL
  const pgSchema = store === 'postgres' ? `a_${randomBytes(6).toString('hex')}` : undefined
  const options = (extra: Partial<AnalyticsOptions>): AnalyticsOptions => ({
    url, dataDir: dir, pgSchema, resources, pageTokens: PAGE_KEY, clock, ingest: { flushIntervalMs: 60_000 }, ...overrides, ...extra
  })
  let analytics = await openAnalytics(options({}))
  let open = true
  const stop = async (): Promise<void> => {
    if (open) await analytics.close()
    open = false
  }
  return {
    get analytics () { return analytics },
    clock,
    dir,
    url,
    pgSchema,
    reopen: async (extra = {}) => {
      await stop()
      analytics = await openAnalytics(options(extra))
      open = true
      return analytics
    },
    stop,
    close: async () => {
      await stop()
      if (pgSchema !== undefined && url !== undefined) await dropSchema(url, pgSchema)
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

export async function dropSchema (url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try { await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) } finally { await client.end() }
}

/** Rows in the events table of one account, straight from the store. */
export async function storedCount (analytics: Analytics, accountId = 'acc-a'): Promise<number> {
  const rows = await analytics.store.query('SELECT COUNT(*) AS n FROM analytics_events WHERE account_id = $1', [accountId])
  return Number(rows[0].n)
}

/** An async iterable of byte chunks, split at awkward places to exercise line reassembly. */
export async function * chunks (text: string | Buffer, size = 7): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text)
  for (let i = 0; i < bytes.length; i += size) yield new Uint8Array(bytes.subarray(i, i + size))
}
