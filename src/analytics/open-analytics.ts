import { join } from 'node:path'
import { systemClock, type Clock } from '../lib/clock.ts'
import { PageTokens } from '../paging/index.ts'
import { validateBatch, type CollectContext } from './collect/collect.ts'
import { openGeoIp, type GeoLookup } from './collect/geo.ts'
import { importEvents, type ImportOptions, type ImportResult } from './import/import-events.ts'
import type { ByteSource } from './import/ndjson-lines.ts'
import { Ingestor, type IngestorOptions } from './ingest/ingestor.ts'
import type { AnalyticsResources } from './model.ts'
import { classicReportQuery } from './report/classic-path.ts'
import type { ReportQuery } from './report/params.ts'
import { failuresReport, type FailuresAnswer } from './report/failures.ts'
import { retentionReport, type RetentionAnswer } from './report/retention.ts'
import { runReport, type ReportAnswer, type ReportOptions } from './report/run-report.ts'
import type { Readable } from 'node:stream'
import { exportBody, parseExportParams, type ExportParams } from './export/export-events.ts'
import { openAnalyticsStore } from './store/open-store.ts'
import type { AnalyticsStore, DuckDbSettings } from './store/store.ts'

export interface AnalyticsOptions {
  /** ANALYTICS_URL: unset → DuckDB file in the data directory; `duckdb:<file>`; `postgres://…`. */
  url: string | undefined
  dataDir: string
  /** Where accepted batches are journaled; one process per directory (default `<dataDir>/analytics-spool`). */
  spoolDir?: string
  /** PostgreSQL schema for the analytics tables (tests); default the connection's search_path. */
  pgSchema?: string
  /** The embedded store's memory bound and threads; DuckDB's own defaults grow with the machine. */
  duckdb?: DuckDbSettings
  /** Maintain rollups at ingestion (default true; docs/analytics.md, "Rollups"). */
  rollups?: boolean
  /** GEOIP_DB: a MaxMind country or city database. `geo` instead gives the lookup directly. */
  geoIpPath?: string
  geo?: GeoLookup
  resources: AnalyticsResources
  /**
   * The process's page tokens, or their key (≥ 16 bytes). Reports sign theirs under a key derived
   * from it (`PageTokens.forKind`), so a list's token never passes for a report's, nor the reverse.
   */
  pageTokens: PageTokens | string | Buffer
  clock?: Clock
  /**
   * Ingestion settings, or `false` for a process that only reads reports and imports (a PostgreSQL-backed
   * `cdn` or `worker` process): it opens no spool, so it never contends for the api process's one.
   */
  ingest?: Omit<IngestorOptions, 'now'> | false
}

/** The analytics engine the HTTP layer calls: one object per process, opened at start, closed at shutdown. */
export interface Analytics {
  readonly store: AnalyticsStore
  /** Undefined when opened with `ingest: false`. */
  readonly ingestor: Ingestor | undefined
  /** `POST /v2/analytics/events`: validates, journals durably, resolves when the caller may answer 204. */
  collect: (body: unknown, context?: CollectContext) => Promise<void>
  /** `POST /v2/analytics/events/import`: NDJSON, all or nothing. */
  importEvents: (accountId: string, source: ByteSource, options?: ImportOptions) => Promise<ImportResult>
  /** `GET /v2/analytics/reports`. */
  report: (accountId: string, query: ReportQuery, options?: ReportOptions) => Promise<ReportAnswer>
  /** `GET /v2/analytics/reports/<classic path>`: `path` is the request path (before `?`), still percent-encoded. */
  classicReport: (accountId: string, path: string, query: ReportQuery) => Promise<ReportAnswer>
  /** `GET /v2/analytics/retention`: the retention curve of one asset. */
  retention: (accountId: string, query: ReportQuery) => Promise<RetentionAnswer>
  /** `GET /v2/analytics/failures`: the fatal playback errors by code and message. */
  failures: (accountId: string, query: ReportQuery) => Promise<FailuresAnswer>
  /** `GET /v2/analytics/exports`: the account's raw events in a range, validated first (a 400 before any byte). */
  exportEvents: (accountId: string, query: ReportQuery) => Promise<{ params: ExportParams, body: Readable, size?: number }>
  /** Writes accepted batches to the store now (tests, shutdown). */
  flush: () => Promise<void>
  /** Stops accepting, flushes, closes the spool and the store. */
  close: () => Promise<void>
}

const REPORT_TOKENS = 'analytics report'

/**
 * Opens the store, replays the spool (so what was accepted before a crash is reported), and starts
 * background ingestion. With the embedded DuckDB store only one process may do this.
 */
export async function openAnalytics (options: AnalyticsOptions): Promise<Analytics> {
  const clock = options.clock ?? systemClock
  const now = (): number => clock.now()
  const geo = options.geo ?? (options.geoIpPath === undefined ? undefined : await openGeoIp(options.geoIpPath))
  const tokens = (options.pageTokens instanceof PageTokens ? options.pageTokens : new PageTokens(options.pageTokens)).forKind(REPORT_TOKENS)
  const store = await openAnalyticsStore(options.url, { dataDir: options.dataDir, pgSchema: options.pgSchema, duckdb: options.duckdb, rollups: options.rollups })
  let ingestor: Ingestor | undefined
  try {
    if (options.ingest !== false) ingestor = await Ingestor.start(store, options.spoolDir ?? join(options.dataDir, 'analytics-spool'), { ...options.ingest, now })
  } catch (error) {
    await store.close()
    throw error
  }
  const reportContext = { store, resources: options.resources, tokens, now }
  return {
    store,
    ingestor,
    collect: async (body, context = {}) => {
      // A wiring mistake, not a client error: the route belongs to the process that ingests.
      if (ingestor === undefined) throw new Error('analytics was opened with ingest: false; collection is not served here')
      const rows = await validateBatch(body, context, { resources: options.resources, geo, now })
      await ingestor.accept(rows)
    },
    importEvents: async (accountId, source, importOptions) =>
      await importEvents({ store, resources: options.resources, geo, now }, accountId, source, importOptions),
    report: async (accountId, query, reportOptions) => await runReport(reportContext, accountId, query, reportOptions),
    classicReport: async (accountId, path, query) =>
      await runReport(reportContext, accountId, classicReportQuery(path, query), { path, linkQuery: query }),
    retention: async (accountId, query) => await retentionReport(store, accountId, query, now()),
    failures: async (accountId, query) => await failuresReport(store, accountId, query, now()),
    exportEvents: async (accountId, query) => {
      const params = parseExportParams(query, now())
      return { params, ...await exportBody(store, accountId, params) }
    },
    flush: async () => { await ingestor?.flush() },
    close: async () => {
      try { await ingestor?.close() } finally { await store.close() }
    }
  }
}
