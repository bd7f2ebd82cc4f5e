import { availableParallelism } from 'node:os'
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import dotenv from 'dotenv'
import { awsCredentialsEnv, type AwsCredentialsEnv } from './aws-credentials.ts'
import { mediaToolsEnv, type MediaToolsEnv } from './media-tools.ts'
import { isIP } from 'node:net'
import { bool, ConfigError, int, oneOf, publicUrl, str, url, type Env } from './parse.ts'

export const ROLES = ['api', 'cdn', 'indexer', 'worker'] as const
export type ProcessRole = typeof ROLES[number]

/** Everything Reelhouse reads from its environment, validated once at start. */
export interface Config {
  dataDir: string
  /** `sqlite:<file>` (default, in the data directory) or `postgres://…`. */
  databaseUrl: string
  host: string
  apiPort: number
  cdnPort: number
  indexerHost: string
  indexerPort: number
  /** Where `GET /metrics` of this process listens; undefined: no such listener (the indexer's port has its own). */
  metricsHost: string
  metricsPort: number | undefined
  tlsCert: string | undefined
  tlsKey: string | undefined
  /**
   * Which proxies in front are trusted for `X-Forwarded-For` and `X-Forwarded-Proto`: false (none: the
   * socket's address is the client's), a hop count, or a list of proxy addresses and CIDR blocks.
   */
  trustProxy: TrustProxy
  /** What the configuration accepted but a person should change (printed at start). */
  warnings: string[]
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** `pretty`: one readable line per request; `json`: one JSON object per line; `auto`: pretty on a terminal. */
  logFormat: 'pretty' | 'json' | 'auto'
  bodyLimit: number
  /** Seconds any request body gets to arrive, plus its length at `requestBodyMinRate`. */
  requestBodyTimeoutSeconds: number
  /** Bytes a second: the slowest average rate a long body (an upload chunk) may arrive at. */
  requestBodyMinRate: number
  /** Seconds a request's headers get to arrive (a connection's first ones from when it opens); then 408. */
  requestHeadersTimeoutSeconds: number
  /** Seconds a connection to the HTTPS listener gets to complete its TLS handshake; then it is closed. */
  tlsHandshakeTimeoutSeconds: number
  /** Seconds a stopping listener lets requests in flight finish before it closes every connection left. */
  shutdownGraceSeconds: number
  masterKey: string | undefined
  creditsPerMinute: number
  /** Credits can be switched off (benchmarks, private deployments); on by default. */
  creditsEnabled: boolean
  redisUrl: string | undefined
  /** What to do when Redis is unreachable: serve and log, or refuse with 503. */
  redisFailureMode: 'serve' | 'refuse'
  cdnTtlSeconds: number
  cdnCacheBytes: number
  /** `max-age` the cached variant gives downstream caches (browsers, CDNs); 0: revalidate every time (with the ETag). */
  cdnClientMaxAge: number
  /** Where the invalidation bus listens, when not the database or Redis URL itself (a direct PostgreSQL connection behind a pooler). */
  invalidationBusUrl: string | undefined
  /** How often the bus's connection is checked, and how long a check may take before it counts as lost (ms). */
  invalidationHeartbeatMs: number
  /** Embedded SQLite: how often the file is checked for another process's writes (ms). */
  invalidationPollMs: number
  /** Bound on the in-process cache of credentials and resources read by id (bytes). */
  readCacheBytes: number
  /** The main service answers repeated signed GETs of one resource in its lean lane (src/http/lean-lane/). */
  leanLane: boolean
  amqpUrl: string | undefined
  rabbitmqManagementUrl: string | undefined
  searchUrl: string | undefined
  indexPrefix: string
  indexerUser: string | undefined
  indexerPassword: string | undefined
  analyticsUrl: string | undefined
  /** Event batches one client address may post per minute (`POST /v2/analytics/events`); 0: no limit. */
  analyticsCollectPerMinute: number
  /** How far ahead a signed URL may expire; undefined: no bound (docs/configuration.md). */
  maxExpiresSeconds: number | undefined
  /** The embedded DuckDB analytics store's memory bound (MB) and threads. */
  analyticsMemoryMb: number
  analyticsThreads: number
  /** SQLite page cache per connection (KiB), for the database and the FTS5 search file. */
  sqliteCacheKb: number
  /** Prepared statements kept for reuse per connection of the embedded database. */
  sqliteStatementCache: number
  geoipDb: string | undefined
  mediaStoreUrl: string | undefined
  /** How long a media worker holds a job without renewing its lease; a killed worker's job is taken again after it. */
  mediaJobLeaseSeconds: number
  /** Attempts of a media job before it fails for good (a job that crashes its worker every time). */
  mediaJobAttempts: number
  /** MEDIA_WORKER_CONCURRENCY: media jobs a worker process runs at once (default: half the cores, at least 1). */
  mediaWorkerConcurrency: number
  /** Seconds a replaced media version's files stay for players in the middle of it; 0 removes them at once. */
  mediaRetireAfterSeconds: number
  /** MEDIA_REDIRECT: `proxy` streams media files from the store; `presigned` (S3 only) redirects files to pre-signed URLs (docs/media.md). */
  mediaRedirect: 'proxy' | 'presigned'
  /** MEDIA_FILE_SEND: `lane` sends media file bodies straight to the socket after every decision; `pipeline` through Fastify's reply (docs/media.md). */
  mediaFileSend: 'lane' | 'pipeline'
  /**
   * Test only: the ladder's encoding run reads its input at this percentage of real time (100: as fast
   * as it plays), so a test can watch playlists grow without racing the encoder; 0 (the default) is off.
   */
  mediaTestPacingPercent: number
  /** Webhook targets may be private, loopback or other non-public addresses (a private network's receivers). */
  webhooksAllowPrivate: boolean
  /** Webhook targets may be `http://`. */
  webhooksAllowHttp: boolean
  /** The pauses before each webhook retry (ms); undefined: the default, about 15 attempts over 24 h. */
  webhooksRetryScheduleMs: number[] | undefined
  /** How long a worker holds a webhook delivery; a killed worker's deliveries are taken again after it. */
  webhooksLeaseSeconds: number
  /**
   * The addresses absolute URLs in answers are built from (feed links, media, chunk URLs): never the
   * request's Host, which a caller chooses. Default: the listeners' own addresses.
   */
  publicApiUrl: string
  publicCdnUrl: string
  /** FFMPEG_PATH, FFPROBE_PATH and what a media tool's process inherits from ours (media-tools.ts). */
  mediaTools: MediaToolsEnv
  /** AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN: the media store's credentials when MEDIA_STORE_URL has none. */
  awsCredentials: AwsCredentialsEnv
  /** Generated captions (docs/captions.md): whisper.cpp's executable and model, set together; pocketsphinx's English model folder. */
  captionsWhisperBin: string | undefined
  captionsWhisperModel: string | undefined
  captionsPocketsphinxModel: string
}

/**
 * Reads the configuration from `env` (by default `process.env` plus an optional `.env` file, whose
 * values never override the real environment). Throws ConfigError naming the first bad variable.
 */
export function loadConfig (env: Env = withDotEnv(process.env)): Config {
  const dataDir = resolve(str(env, 'REELHOUSE_DATA_DIR', './data'))
  const databaseUrl = databaseUrlFrom(env, dataDir)
  const tlsCert = str(env, 'TLS_CERT')
  const tlsKey = str(env, 'TLS_KEY')
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    throw new ConfigError(tlsCert === undefined ? 'TLS_CERT' : 'TLS_KEY', 'set together with the other of TLS_CERT/TLS_KEY', '')
  }
  const masterKey = str(env, 'REELHOUSE_MASTER_KEY')
  if (masterKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(masterKey)) {
    throw new ConfigError('REELHOUSE_MASTER_KEY', '64 hexadecimal characters (32 bytes)', masterKey)
  }
  const config: Config = {
    dataDir,
    databaseUrl,
    host: str(env, 'HOST', '0.0.0.0'),
    apiPort: int(env, 'API_PORT', 8443, 0, 65535),
    cdnPort: int(env, 'CDN_PORT', 8080, 0, 65535),
    indexerHost: str(env, 'INDEXER_HOST', '127.0.0.1'),
    indexerPort: int(env, 'INDEXER_PORT', 9400, 0, 65535),
    metricsHost: str(env, 'METRICS_HOST', '127.0.0.1'),
    metricsPort: env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? undefined : int(env, 'METRICS_PORT', 0, 0, 65535),
    tlsCert,
    tlsKey,
    trustProxy: false,
    warnings: [],
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['pretty', 'json', 'auto'] as const, 'auto'),
    bodyLimit: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    requestBodyTimeoutSeconds: int(env, 'REQUEST_BODY_TIMEOUT_SECONDS', 60, 1, 3600),
    requestBodyMinRate: int(env, 'REQUEST_BODY_MIN_RATE', 16 * 1024, 1024, 1024 * 1024 * 1024),
    requestHeadersTimeoutSeconds: int(env, 'REQUEST_HEADERS_TIMEOUT_SECONDS', 15, 1, 300),
    tlsHandshakeTimeoutSeconds: int(env, 'TLS_HANDSHAKE_TIMEOUT_SECONDS', 10, 1, 300),
    shutdownGraceSeconds: int(env, 'SHUTDOWN_GRACE_SECONDS', 10, 0, 3600),
    masterKey,
    creditsPerMinute: int(env, 'CREDITS_PER_MINUTE', 1000, 1, 1_000_000_000),
    creditsEnabled: bool(env, 'CREDITS_ENABLED', true),
    redisUrl: url(env, 'REDIS_URL', ['redis', 'rediss']),
    redisFailureMode: oneOf(env, 'REDIS_FAILURE_MODE', ['serve', 'refuse'] as const, 'serve'),
    cdnTtlSeconds: int(env, 'CDN_TTL_SECONDS', 300, 1, 86_400),
    cdnCacheBytes: int(env, 'CDN_CACHE_BYTES', 16 * 1024 * 1024, 1024, 16 * 1024 * 1024 * 1024),
    cdnClientMaxAge: int(env, 'CDN_CLIENT_MAX_AGE', 0, 0, 86_400),
    invalidationBusUrl: url(env, 'INVALIDATION_BUS_URL', ['postgres', 'postgresql', 'redis', 'rediss']),
    invalidationHeartbeatMs: int(env, 'INVALIDATION_HEARTBEAT_MS', 1000, 50, 60_000),
    invalidationPollMs: int(env, 'INVALIDATION_POLL_MS', 200, 10, 60_000),
    readCacheBytes: int(env, 'READ_CACHE_BYTES', 8 * 1024 * 1024, 0, 16 * 1024 * 1024 * 1024),
    leanLane: bool(env, 'LEAN_LANE', true),
    amqpUrl: url(env, 'AMQP_URL', ['amqp', 'amqps']),
    rabbitmqManagementUrl: url(env, 'RABBITMQ_MANAGEMENT_URL', ['http', 'https']),
    searchUrl: url(env, 'SEARCH_URL', ['http', 'https', 'opensearch', 'opensearchs', 'elasticsearch', 'elasticsearchs']),
    indexPrefix: str(env, 'INDEX_PREFIX', 'flex-account'),
    indexerUser: str(env, 'INDEXER_USER'),
    indexerPassword: str(env, 'INDEXER_PASSWORD'),
    analyticsUrl: url(env, 'ANALYTICS_URL', ['duckdb', 'postgres', 'postgresql']),
    analyticsCollectPerMinute: int(env, 'ANALYTICS_COLLECT_PER_MINUTE', 600, 0, 1_000_000_000),
    analyticsMemoryMb: int(env, 'ANALYTICS_MEMORY_MB', 128, 16, 1_048_576),
    analyticsThreads: int(env, 'ANALYTICS_THREADS', 2, 1, 256),
    sqliteCacheKb: int(env, 'SQLITE_CACHE_KB', 2048, 256, 16_777_216),
    sqliteStatementCache: int(env, 'SQLITE_STATEMENT_CACHE', 1000, 1, 1_000_000),
    maxExpiresSeconds: env.MAX_EXPIRES_SECONDS === undefined || env.MAX_EXPIRES_SECONDS === '' ? undefined : int(env, 'MAX_EXPIRES_SECONDS', 0, 1, 1_000_000_000),
    geoipDb: str(env, 'GEOIP_DB'),
    mediaStoreUrl: url(env, 'MEDIA_STORE_URL', ['file', 's3', 's3+http', 's3+https', 'http', 'https']),
    mediaJobLeaseSeconds: int(env, 'MEDIA_JOB_LEASE_SECONDS', 60, 2, 3600),
    mediaJobAttempts: int(env, 'MEDIA_JOB_ATTEMPTS', 3, 1, 100),
    mediaWorkerConcurrency: int(env, 'MEDIA_WORKER_CONCURRENCY', Math.max(1, Math.floor(availableParallelism() / 2)), 1, 64),
    mediaRetireAfterSeconds: int(env, 'MEDIA_RETIRE_AFTER_SECONDS', 6 * 60 * 60, 0, 30 * 24 * 60 * 60),
    mediaRedirect: oneOf(env, 'MEDIA_REDIRECT', ['proxy', 'presigned'] as const, 'proxy'),
    mediaFileSend: oneOf(env, 'MEDIA_FILE_SEND', ['lane', 'pipeline'] as const, 'lane'),
    mediaTestPacingPercent: int(env, 'MEDIA_TEST_PACING_PERCENT', 0, 0, 10_000),
    webhooksAllowPrivate: bool(env, 'WEBHOOKS_ALLOW_PRIVATE', false),
    webhooksAllowHttp: bool(env, 'WEBHOOKS_ALLOW_HTTP', false),
    webhooksRetryScheduleMs: retrySchedule(env),
    webhooksLeaseSeconds: int(env, 'WEBHOOKS_LEASE_SECONDS', 60, 1, 3600),
    publicApiUrl: '',
    publicCdnUrl: '',
    mediaTools: mediaToolsEnv(env),
    awsCredentials: awsCredentialsEnv(env),
    captionsWhisperBin: str(env, 'CAPTIONS_WHISPER_BIN'),
    captionsWhisperModel: str(env, 'CAPTIONS_WHISPER_MODEL'),
    captionsPocketsphinxModel: str(env, 'CAPTIONS_POCKETSPHINX_MODEL', '/usr/share/pocketsphinx/model/en-us')
  }
  config.trustProxy = trustProxyFrom(env, config.warnings)
  // The listeners' own addresses; a wildcard host is reached as localhost.
  const reachable = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host
  config.publicApiUrl = publicUrl(env, 'PUBLIC_API_URL', `https://${reachable}:${config.apiPort}`)
  config.publicCdnUrl = publicUrl(env, 'PUBLIC_CDN_URL', `http://${reachable}:${config.cdnPort}`)
  if ((config.captionsWhisperBin === undefined) !== (config.captionsWhisperModel === undefined)) {
    throw new ConfigError(config.captionsWhisperBin === undefined ? 'CAPTIONS_WHISPER_BIN' : 'CAPTIONS_WHISPER_MODEL', 'set together with the other of CAPTIONS_WHISPER_BIN/CAPTIONS_WHISPER_MODEL', '')
  }
  if ((config.indexerUser === undefined) !== (config.indexerPassword === undefined)) {
    throw new ConfigError('INDEXER_PASSWORD', 'set together with INDEXER_USER', '')
  }
  if (!isLoopback(config.indexerHost) && config.indexerUser === undefined) {
    throw new ConfigError('INDEXER_HOST', 'a loopback address unless INDEXER_USER and INDEXER_PASSWORD are set', config.indexerHost)
  }
  if (config.mediaRedirect === 'presigned' && (config.mediaStoreUrl === undefined || config.mediaStoreUrl.startsWith('file:'))) {
    throw new ConfigError('MEDIA_REDIRECT', '`proxy` unless MEDIA_STORE_URL names an S3 bucket (only S3 pre-signs URLs)', config.mediaRedirect)
  }
  if (config.geoipDb !== undefined && !existsSync(config.geoipDb)) {
    throw new ConfigError('GEOIP_DB', 'the path of an existing MaxMind database file', config.geoipDb)
  }
  return config
}

/** false, a hop count, or proxy addresses and CIDR blocks (docs/configuration.md). */
export type TrustProxy = false | number | string[]

/**
 * TRUST_PROXY: unset or false trusts no proxy; a number trusts that many hops; a comma-separated list
 * trusts the proxies at those addresses or blocks. A bare `true` (trust every hop) would let a viewer name
 * its own address, and so its country: it is read as one hop, with a warning.
 */
function trustProxyFrom (env: Env, warnings: string[]): TrustProxy {
  const value = env.TRUST_PROXY?.trim()
  if (value === undefined || value === '') return false
  const lower = value.toLowerCase()
  if (['0', 'false', 'no', 'off'].includes(lower)) return false
  if (['true', 'yes', 'on'].includes(lower)) {
    warnings.push('TRUST_PROXY=true is read as TRUST_PROXY=1 (one proxy in front). Set the hop count or the proxies\' addresses (CIDR list): trusting every hop would let a viewer choose its address through X-Forwarded-For.')
    return 1
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    if (hops > 32) throw new ConfigError('TRUST_PROXY', 'false, a hop count from 1 to 32, or a comma-separated list of proxy addresses or CIDR blocks', value)
    return hops
  }
  const blocks = value.split(',').map((part) => part.trim())
  for (const block of blocks) {
    if (!isAddressOrBlock(block)) throw new ConfigError('TRUST_PROXY', 'false, a hop count from 1 to 32, or a comma-separated list of proxy addresses or CIDR blocks', value)
  }
  return blocks
}

function isAddressOrBlock (text: string): boolean {
  const [address, bits, extra] = text.split('/')
  if (extra !== undefined || address === undefined) return false
  const family = isIP(address)
  if (family === 0) return false
  if (bits === undefined) return true
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

function retrySchedule (env: Env): number[] | undefined {
  const value = str(env, 'WEBHOOKS_RETRY_SCHEDULE_MS')
  if (value === undefined || value === '') return undefined
  const pauses = value.split(',').map((part) => Number(part.trim()))
  if (pauses.length > 100 || pauses.some((ms) => !Number.isInteger(ms) || ms < 0 || ms > 7 * 24 * 3600 * 1000)) {
    throw new ConfigError('WEBHOOKS_RETRY_SCHEDULE_MS', 'a comma-separated list of at most 100 pauses in milliseconds', value)
  }
  return pauses
}

function databaseUrlFrom (env: Env, dataDir: string): string {
  const value = str(env, 'DATABASE_URL')
  if (value === undefined) return `sqlite:${resolve(dataDir, 'reelhouse.db')}`
  if (/^postgres(ql)?:\/\//.test(value) || value.startsWith('sqlite:')) return value
  throw new ConfigError('DATABASE_URL', 'a postgres:// URL or sqlite:<file>', value)
}

export function isLoopback (host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

function withDotEnv (env: NodeJS.ProcessEnv): Env {
  const file = resolve('.env')
  if (!existsSync(file)) return env
  return { ...dotenv.parse(readFileSync(file)), ...env }
}
