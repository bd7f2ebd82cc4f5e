import type { Kysely } from 'kysely'
import { chooseCaptionEngine } from '../media/captions/index.ts'
import type { Redis } from 'ioredis'
import { pino } from 'pino'
import { createAppAnalytics, type AnalyticsPlacement, type AppAnalytics } from '../analytics/app-analytics.ts'
import { openGeoIp, type GeoLookup } from '../analytics/index.ts'
import { createFreshness, type Freshness } from '../bus/index.ts'
import { createResponseCache, MemoryResponseCache, type GuardedResponseCache } from '../cdn/index.ts'
import type { Config } from '../config/index.ts'
import { AccountAllowances, closeRedis, connectRedis, createCreditStore, RedisCreditStore, type CreditStore, type StoreLogger } from '../credits/index.ts'
import { attachReadCache, cachedStatementCount, chainObservers, migrateToLatest, openDatabase, sqliteHandleOf, type Database, type DB } from '../db/index.ts'
import { systemClock, type Clock } from '../lib/clock.ts'
import { openMediaStore } from '../media/store/index.ts'
import { locateMediaTools, type MediaTools } from '../media/processing/index.ts'
import { PageTokens } from '../paging/index.ts'
import { openSearchStore, type SearchStore } from '../search/index.ts'
import { counter, gauge, MetricsRegistry } from '../ops/metrics/index.ts'
import { loadMasterKey, SecretBox } from '../secrets/index.ts'
import { createAccountsRepository, type AccountsRepository } from '../resources/accounts/index.ts'
import { createUsersRepository, type UsersRepository } from '../resources/users/index.ts'
import { writeEffects } from './resource-document-loaders.ts'
import { createServices, type Services } from './services.ts'

/**
 * Everything the processes of Reelhouse share, built once per process at the top of the house: the
 * database, the clock, the key material, the shared stores and every resource's service. Modules below
 * `app/` never see this object: each declares the few dependencies it needs and is handed them here.
 * Tests build one per test with their own database and clock.
 */
export interface AppContext {
  config: Config
  database: Database
  db: Kysely<DB>
  clock: Clock
  secrets: SecretBox
  pageTokens: PageTokens
  /** The tenants: credit allowances, analytics and reindexing look accounts up. */
  accounts: AccountsRepository
  /** The credential lookup of every signed request. */
  users: UsersRepository
  /** Credit counters: in Redis when REDIS_URL is set (shared by every process, atomic), else in-process. */
  credits: CreditStore
  /** Each account's allowance per minute (its own `credits_per_minute`, else CREDITS_PER_MINUTE). */
  allowances: AccountAllowances
  /** The cached variant's answers: in Redis when REDIS_URL is set (shared), else in-process, bounded by CDN_CACHE_BYTES. */
  responseCache: GuardedResponseCache
  /** The invalidation bus and the in-process caches it keeps fresh (docs/credits-and-cache.md, "Freshness"). */
  freshness: Freshness
  /** The search indices: SEARCH_URL (OpenSearch/Elasticsearch), else SQLite FTS5 in the data directory. */
  search: SearchStore
  /** Analytics events and reports (ANALYTICS_URL, else DuckDB in the data directory); see `AnalyticsPlacement`. */
  analytics: AppAnalytics
  /** GEOIP_DB opened once: analytics' countries and publishing rules' geographic restrictions. */
  geo: GeoLookup | undefined
  /** Every resource's service. */
  services: Services
  /** This process's figures, served by `GET /metrics` (METRICS_PORT, and the indexer's port). */
  metrics: MetricsRegistry
  /** Closes what the context opened (in reverse order of opening). */
  close: () => Promise<void>
  /** Registers a resource to close with the context. */
  onClose: (fn: () => Promise<void>) => void
}

export interface ContextOptions {
  clock?: Clock
  /** An already open database (tests); otherwise `config.databaseUrl` is opened and migrated. */
  database?: Database
  /** Prefix of every Redis key (default `reelhouse:`); tests use a unique one per run. */
  redisKeyPrefix?: string
  /** Where the shared stores report outages; default a pino logger at LOG_LEVEL. */
  logger?: StoreLogger
  /** Whether this process serves analytics, and whether it opens the store at once (`serve`) or on first use (default). */
  analytics?: AnalyticsPlacement
}

export async function createContext (config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const database = options.database ?? await openDatabase(config.databaseUrl, { sqliteCacheKb: config.sqliteCacheKb, sqliteStatements: config.sqliteStatementCache })
  if (options.database === undefined) await migrateToLatest(database.db)
  const secrets = new SecretBox(loadMasterKey(config))
  const closers: Array<() => Promise<void>> = []
  if (options.database === undefined) closers.push(database.close)
  const clock = options.clock ?? systemClock
  const logger = options.logger ?? pino({ level: config.logLevel })
  const prefix = options.redisKeyPrefix ?? 'reelhouse:'
  let redis: Redis | undefined
  if (config.redisUrl !== undefined) {
    const connection = await connectRedis(config.redisUrl, logger)
    closers.push(async () => { await closeRedis(connection) })
    redis = connection
  }
  // What commits with every write: the outbox entries its changes touch (src/app/resource-document-loaders.ts).
  database.effects = writeEffects(clock)
  const accounts = createAccountsRepository(database.db)
  const search = await openSearchStore(config)
  closers.push(search.close)
  const responseCache = createResponseCache({ ttlSeconds: config.cdnTtlSeconds, maxBytes: config.cdnCacheBytes, redis, clock, logger, keyPrefix: `${prefix}cdn:` })
  const freshness = await createFreshness({ config, database, redis, responseCache, logger, keyPrefix: prefix })
  // Every write of this process reaches the bus through the one place writes commit (src/db/account-lock.ts).
  const observers = database.writes
  database.writes = chainObservers(observers, freshness.writes)
  const detach = config.readCacheBytes > 0 ? attachReadCache(database.db, freshness.readCache) : () => {}
  closers.push(async () => {
    database.writes = observers
    detach()
    await freshness.close()
  })
  await freshness.whenUp(config.invalidationHeartbeatMs * 3)
  const metrics = new MetricsRegistry()
  metrics.register('freshness', freshness.families)
  metrics.register('response-cache', () => responseCache.inner instanceof MemoryResponseCache
    ? [gauge('reelhouse_response_cache_bytes', 'Bytes the in-process response cache of the cached variant holds (CDN_CACHE_BYTES bounds it)', responseCache.inner.bytes),
        gauge('reelhouse_response_cache_entries', 'Answers the in-process response cache holds', responseCache.inner.size)]
    : [])
  const sqlite = sqliteHandleOf(database.db)
  if (sqlite !== undefined) {
    metrics.register('sqlite', () => [gauge('reelhouse_sqlite_prepared_statements', 'Prepared statements the embedded database keeps for reuse (SQLITE_STATEMENT_CACHE bounds it)', cachedStatementCount(sqlite))])
  }
  const geo = config.geoipDb === undefined ? undefined : await openGeoIp(config.geoipDb)
  const analytics = await createAppAnalytics({ config, db: database.db, accounts, clock, tokenKey: secrets.tokenKey, logger, geo }, options.analytics)
  closers.push(analytics.close)
  metrics.register('analytics-store', analytics.families)
  const mediaStore = await openMediaStore(config.mediaStoreUrl, { dataDir: config.dataDir, env: config.awsCredentials, logger: pino({ level: config.logLevel }) })
  closers.push(async () => { await mediaStore.close() })
  const credits = createCreditStore({ redis, clock, failureMode: config.redisFailureMode, logger, keyPrefix: `${prefix}credits:` })
  metrics.register('redis-refusals', () => [counter('reelhouse_redis_refusals_total',
    'Requests refused with 503 because Redis was unreachable (REDIS_FAILURE_MODE=refuse)', credits instanceof RedisCreditStore ? credits.refusals : 0)])
  return {
    config,
    database,
    db: database.db,
    clock,
    secrets,
    pageTokens: new PageTokens(secrets.tokenKey),
    accounts,
    users: createUsersRepository(database.db),
    credits,
    allowances: new AccountAllowances(async (id) => (await accounts.findById(id))?.credits_per_minute, config.creditsPerMinute, clock),
    responseCache,
    freshness,
    search,
    analytics,
    geo,
    services: createServices({ database, clock, secrets, search, dataDir: config.dataDir, mediaStore, mediaTools: onceTools(config), publicApiUrl: config.publicApiUrl, defaultCreditsPerMinute: config.creditsPerMinute, webhookTargets: { allowHttp: config.webhooksAllowHttp, allowPrivate: config.webhooksAllowPrivate }, captionEngine: chooseCaptionEngine({ whisperBin: config.captionsWhisperBin, whisperModel: config.captionsWhisperModel, pocketsphinxModel: config.captionsPocketsphinxModel }) }),
    metrics,
    onClose: (fn) => { closers.push(fn) },
    close: async () => {
      for (const fn of closers.reverse()) await fn()
    }
  }
}

/** ffmpeg for the api's own media work (checking preview image files), found on first use and kept. */
function onceTools (config: Config): () => Promise<MediaTools> {
  let found: Promise<MediaTools> | undefined
  return async () => {
    found ??= locateMediaTools({ env: config.mediaTools })
    return await found
  }
}
