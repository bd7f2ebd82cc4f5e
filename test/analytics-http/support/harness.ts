import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import type { Variant } from '../../../src/app/build-app.ts'
import { buildTestApp, type Caller, type TestApp } from '../../support/app.ts'
import { databaseBackends } from '../../support/backends.ts'

/** The resources database × the analytics store: every pair a test runs on. */
export interface Combo {
  name: string
  resources: 'sqlite' | 'postgres'
  store: 'duckdb' | 'postgres'
  skip: string | false
}

/** Resources on every backend of databaseBackends(); analytics on DuckDB, and on PostgreSQL when TEST_DATABASE_URL is set. */
export function analyticsCombos (): Combo[] {
  const pgSkip = process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set'
  return databaseBackends().flatMap((backend) => (['duckdb', 'postgres'] as const).map((store) => ({
    name: `resources on ${backend.name}, analytics on ${store}`,
    resources: backend.name,
    store,
    skip: backend.skip !== false ? backend.skip : store === 'postgres' ? pgSkip : false
  })))
}

// The manual clock of buildTestApp reads 2026-11-22T10:00:00Z; collection accepts the week before.
export const EVENT_TIME = '2026-11-22T09:30:00Z'
export const DAY = { start_date: '2026-11-22', end_date: '2026-11-23' }

export interface AnalyticsTestApp extends TestApp {
  /** POST /v2/analytics/events, unsigned, from `remoteAddress` (default 127.0.0.1). */
  collect: (body: unknown, options?: { headers?: Record<string, string>, remoteAddress?: string }) => Promise<LightMyRequestResponse>
  /** A signed GET of a report, `query` as parameters. */
  report: (query: Record<string, string>, as?: Caller, path?: string) => Promise<LightMyRequestResponse>
  /** A remote asset created through the API; returns its embed code. */
  asset: (as?: Caller) => Promise<string>
  /** Writes accepted batches to the store (ingestion flushes every second on its own). */
  flush: () => Promise<void>
  /** Events stored for the account (all accounts without one). */
  stored: (accountId?: string) => Promise<number>
}

/** A fresh app (buildTestApp) whose analytics store is fresh too: a DuckDB file, or its own PostgreSQL schema. */
export async function buildAnalyticsApp (combo: Combo, env: Record<string, string> = {}, variant: Variant = 'api'): Promise<AnalyticsTestApp> {
  const schema = combo.store === 'postgres' ? `an_${randomBytes(6).toString('hex')}` : undefined
  const base = process.env.TEST_DATABASE_URL
  let analyticsEnv: Record<string, string> = {}
  if (schema !== undefined && base !== undefined) {
    await onPostgres(base, `CREATE SCHEMA ${schema}`)
    const url = new URL(base)
    url.searchParams.set('options', `-c search_path=${schema}`)
    analyticsEnv = { ANALYTICS_URL: url.toString() }
  }
  const t = await buildTestApp(combo.resources, { ...analyticsEnv, ...env }, variant)
  const engine = async () => await t.ctx.analytics.get()
  return {
    ...t,
    collect: async (body, options = {}) => await t.app.inject({
      method: 'POST',
      url: '/v2/analytics/events',
      payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...options.headers },
      remoteAddress: options.remoteAddress
    }),
    report: async (query, as, path = '/v2/analytics/reports') => await t.signed('GET', path, { params: query, as }),
    asset: async (as) => {
      const res = await t.signed('POST', '/v2/assets', { as, body: { asset_type: 'remote_asset', name: 'Clip', stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } } })
      assert.equal(res.statusCode, 200, res.body)
      return res.json().embed_code as string
    },
    flush: async () => { await (await engine()).flush() },
    stored: async (accountId) => {
      const analytics = await engine()
      await analytics.flush()
      const rows = accountId === undefined
        ? await analytics.store.query('SELECT COUNT(*) AS n FROM analytics_events', [])
        : await analytics.store.query('SELECT COUNT(*) AS n FROM analytics_events WHERE account_id = $1', [accountId])
      return Number(rows[0].n)
    },
    close: async () => {
      await t.close()
      if (schema !== undefined && base !== undefined) await onPostgres(base, `DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    }
  }
}

async function onPostgres (url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try { await client.query(statement) } finally { await client.end() }
}

/** A batch of the player protocol (docs/analytics.md, "The batch") for one asset. */
export function batch (accountCode: string, assetId: string, events: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { account_code: accountCode, session_id: `s-${randomBytes(4).toString('hex')}`, asset_id: assetId, events, ...extra }
}

/** `n` displays at EVENT_TIME. */
export function displays (n: number): Array<Record<string, unknown>> {
  return Array.from({ length: n }, () => ({ name: 'display', time: EVENT_TIME }))
}

/** The one total row's metrics of a report answer. */
export function totals (res: LightMyRequestResponse): Record<string, number> | undefined {
  assert.equal(res.statusCode, 200, res.body)
  return res.json().results[0]?.data[0]?.metrics
}
