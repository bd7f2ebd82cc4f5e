import type { GeoLookup } from './collect/geo.ts'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { AccountsRepository } from '../resources/accounts/index.ts'
import type { Config, ProcessRole } from '../config/index.ts'
import type { StoreLogger } from '../credits/index.ts'
import type { DB } from '../db/tables/index.ts'
import { ApiError } from '../errors/api-error.ts'
import type { Clock } from '../lib/clock.ts'
import { gauge, type Family } from '../ops/metrics/index.ts'
import type { ReadinessCheck } from '../ops/readiness.ts'
import { openAnalytics, type Analytics } from './open-analytics.ts'
import { analyticsResources } from './analytics-resources.ts'

/**
 * Whether and how this process serves analytics (docs/analytics.md, "More than one process"). The
 * embedded DuckDB file admits one process, so only the process of the `api` role opens it; with
 * PostgreSQL a separate `cdn` process serves analytics too, with a spool of its own.
 */
export type AnalyticsPlacement =
  | { serve: false, reason: string }
  | { serve: true, spoolDir?: string, openAtStart: boolean }

/** Tests and CLI commands: opened on first use, so a command run beside a server never touches the store. */
export const ON_FIRST_USE: AnalyticsPlacement = { serve: true, openAtStart: false }

export function analyticsPlacement (config: Config, roles: readonly ProcessRole[]): AnalyticsPlacement {
  if (roles.includes('api')) return { serve: true, openAtStart: true }
  if (!roles.includes('cdn')) return { serve: false, reason: 'This process serves no analytics routes.' }
  if (isEmbedded(config.analyticsUrl)) {
    return {
      serve: false,
      reason: 'Analytics is served by the api process here: the embedded store admits one process. Use the api endpoint, or set ANALYTICS_URL to PostgreSQL.'
    }
  }
  return { serve: true, spoolDir: join(config.dataDir, 'analytics-spool-cdn'), openAtStart: true }
}

/** Spool slots for api processes sharing a data directory with PostgreSQL analytics (docs/analytics.md). */
const SPOOL_SLOTS = 16

export function isEmbedded (analyticsUrl: string | undefined): boolean {
  return analyticsUrl === undefined || analyticsUrl.startsWith('duckdb:')
}

/** The engine as the app holds it: opened once per process, closed with the context. */
export interface AppAnalytics {
  readonly placement: AnalyticsPlacement
  /** The open engine; a 503 when this process does not serve analytics. */
  get: () => Promise<Analytics>
  /** The embedded store's memory once it is open (none for PostgreSQL, none before it opens). */
  families: () => Promise<Family[]>
  close: () => Promise<void>
}

export interface AppAnalyticsDeps {
  config: Config
  db: Kysely<DB>
  accounts: AccountsRepository
  clock: Clock
  /** The context's page token key; report tokens get a key derived from it. */
  tokenKey: Buffer
  logger: StoreLogger
  /** The GeoIP database the process opened once (GEOIP_DB), shared with playback rules. */
  geo?: GeoLookup
}

export async function createAppAnalytics (deps: AppAnalyticsDeps, placement: AnalyticsPlacement = ON_FIRST_USE): Promise<AppAnalytics> {
  const openEngine = async (served: Extract<AnalyticsPlacement, { serve: true }>): Promise<Analytics> => {
    if (served.spoolDir !== undefined || isEmbedded(deps.config.analyticsUrl)) return await openIn(served.spoolDir)
    // With PostgreSQL several api processes share the data directory: each takes the first spool slot no
    // live process holds (`analytics-spool`, `-2`, …), so a dead process's slot is replayed by the next one.
    for (let slot = 1; ; slot++) {
      try {
        return await openIn(join(deps.config.dataDir, slot === 1 ? 'analytics-spool' : `analytics-spool-${slot}`))
      } catch (error) {
        if (slot >= SPOOL_SLOTS || !/is in use by process/.test((error as Error).message)) throw error
      }
    }
  }
  const openIn = async (spoolDir: string | undefined): Promise<Analytics> => await openAnalytics({
    url: deps.config.analyticsUrl,
    dataDir: deps.config.dataDir,
    duckdb: { memoryLimitMb: deps.config.analyticsMemoryMb, threads: deps.config.analyticsThreads },
    spoolDir,
    ...(deps.geo === undefined ? { geoIpPath: deps.config.geoipDb } : { geo: deps.geo }),
    resources: analyticsResources(deps.db, deps.accounts, deps.clock),
    // Reports derive their own token key from it: a page token of another kind never passes for a report's.
    pageTokens: deps.tokenKey,
    clock: deps.clock,
    ingest: { onError: (error) => { deps.logger.warn({ err: error }, 'analytics ingestion: the store write failed; retrying') } }
  })
  let opening: Promise<Analytics> | undefined
  let closed = false
  const handle: AppAnalytics = {
    placement,
    get: async () => {
      if (!placement.serve) throw new ApiError('dependency_unavailable', placement.reason)
      if (closed) throw new ApiError('dependency_unavailable', 'Analytics is shutting down.', undefined, { 'Retry-After': '5' })
      // A failed open (store unreachable) is retried by the next request rather than remembered.
      opening ??= openEngine(placement).catch((error: unknown) => {
        opening = undefined
        deps.logger.warn({ err: error }, 'analytics: the store could not be opened')
        throw error
      })
      try {
        return await opening
      } catch (error) {
        // The cause (a host, a path) stays in the log and in /ready; clients learn only to come back.
        const unavailable = new ApiError('dependency_unavailable', 'Analytics is unavailable right now. Try again shortly.', undefined, { 'Retry-After': '5' })
        unavailable.cause = error
        throw unavailable
      }
    },
    families: async () => {
      const store = (await opening?.catch(() => undefined))?.store
      // A store closing under the scrape leaves the gauge out rather than failing /metrics.
      const bytes = await store?.memoryBytes?.().catch(() => undefined)
      return bytes === undefined ? [] : [gauge('reelhouse_analytics_store_memory_bytes', 'Memory the embedded DuckDB analytics store holds (ANALYTICS_MEMORY_MB bounds it)', bytes)]
    },
    close: async () => {
      closed = true
      const open = opening
      opening = undefined
      if (open !== undefined) await (await open.catch(() => undefined))?.close()
    }
  }
  // At start, so that the spool is replayed and a locked or unreachable store stops the process with its own error.
  if (placement.serve && placement.openAtStart) await (opening = openEngine(placement))
  return handle
}

/** `/ready`: the store answers a query and ingestion is not so far behind that batches are refused. */
export function analyticsReadinessChecks (analytics: AppAnalytics): Record<string, ReadinessCheck> {
  if (!analytics.placement.serve) return {}
  return {
    analytics: async () => {
      const engine = await analytics.get().catch((error: unknown) => { throw (error as Error).cause ?? error })
      await engine.store.query('SELECT 1 AS ok', [])
      const waiting = engine.ingestor?.pendingRows ?? 0
      return waiting >= BEHIND_ROWS ? `behind: ${waiting} events wait for the ${engine.store.dialect} store` : 'ok'
    }
  }
}

/** Half of the ingestor's default refusal threshold (2,000,000 waiting rows): time to take the process out of rotation. */
const BEHIND_ROWS = 1_000_000
