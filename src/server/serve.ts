import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { analyticsPlacement, isEmbedded } from '../analytics/app-analytics.ts'
import { buildApp } from '../app/build-app.ts'
import { createContext, type AppContext } from '../app/context.ts'
import { documentLoaders } from '../app/resource-document-loaders.ts'
import type { Config, ProcessRole } from '../config/index.ts'
import { consoleBundle } from '../console/index.ts'
import { createLogger } from '../http/logging.ts'
import { buildIndexerApp, IndexMetrics, startWorker, type IndexWorker, type WorkerOptions } from '../indexer/index.ts'
import { buildMetricsApp } from '../ops/metrics/index.ts'
import { loadOrCreateTls } from '../tls/index.ts'
import type { MediaWorker, MediaWorkerOptions } from '../media/worker/index.ts'
import type { DeliveryWorker } from '../webhooks/index.ts'
import { guardConnections } from './connection-guard.ts'
import { acquireDataDirLock } from './data-dir-lock.ts'
import { startMediaRole } from './media-role.ts'
import { startWebhooksRole } from './webhooks-role.ts'
import { recordRunningServer, type RunningServerRecord } from './running-server.ts'

export interface RunningServer {
  ctx: AppContext
  /** The listeners this process opened: one per role that has one, and `metrics` on METRICS_PORT. */
  apps: Partial<Record<ProcessRole | 'metrics', FastifyInstance>>
  close: () => Promise<void>
}

type Print = (line: string) => void

export interface ServeOptions {
  /** Tuning of the index worker (tests shorten its lease). */
  worker?: WorkerOptions
  /** Tuning of the media worker (tests poll faster). */
  media?: MediaWorkerOptions
}

/**
 * Starts the given roles in this process (all of them by default: the embedded deployment).
 * Output meant for the operator (first credentials, certificate fingerprint) goes to `print`, never
 * to the JSON logs.
 */
export async function serve (config: Config, roles: readonly ProcessRole[], print: Print = console.log, options: ServeOptions = {}): Promise<RunningServer> {
  // Only the api process opens an embedded (DuckDB) analytics store, which admits one process
  // (docs/analytics.md): it takes the data directory's lock first, so a second one is told who holds it.
  const placement = analyticsPlacement(config, roles)
  const lock = placement.serve && isEmbedded(config.analyticsUrl) ? acquireDataDirLock(config.dataDir) : undefined
  let ctx: AppContext
  try {
    ctx = await createContext(config, { analytics: placement, logger: createLogger(config) })
  } catch (error) {
    lock?.release()
    throw error
  }
  const apps: RunningServer['apps'] = {}
  let worker: IndexWorker | undefined
  let media: MediaWorker | undefined
  let webhooks: DeliveryWorker | undefined
  let closing: Promise<void> | undefined
  let forget: (() => void) | undefined
  const close = async (): Promise<void> => {
    closing ??= (async () => {
      forget?.()
      // Stop accepting and finish in-flight requests first (within the grace period), then close what they were using.
      await Promise.all(Object.values(apps).map(async (app) => { await (stoppers.get(app) ?? (async () => { await app.close() }))() }))
      await worker?.stop()
      await media?.stop()
      await webhooks?.stop()
      await ctx.close()
      lock?.release()
    })()
    return await closing
  }
  try {
    await start()
  } catch (error) {
    // A port in use, say: close what did start, so that nothing holds the data directory.
    await close()
    throw error
  }
  if (apps.api !== undefined) forget = recordRunningServer(config.dataDir, addresses(config, apps))
  return { ctx, apps, close }

  async function start (): Promise<void> {
    for (const warning of config.warnings) print(`warning: ${warning}`)
    const created = await ctx.services.accounts.bootstrap()
    if (created !== undefined) {
      print('Created the first account and its administrator. The secret is shown only this once:')
      print(`  account id: ${created.account.id}`)
      print(`  api key:    ${created.administrator.api_key}`)
      print(`  secret:     ${created.administrator.secret}`)
      print(`  (also written to ${config.dataDir}/admin-credentials.json, readable by its owner only)`)
    }
    if (roles.includes('api')) apps.api = await startApi(ctx, print)
    if (roles.includes('cdn')) {
      apps.cdn = await buildApp(ctx, { variant: 'cdn' })
      await listen(apps.cdn, config, config.host, config.cdnPort)
      print(`cdn: cached plain-HTTP variant on http://${config.host}:${portOf(apps.cdn)}`)
    }
    // Indexing (docs/search-and-indexing.md): the worker relays and consumes the outbox; the indexer serves reindex and queue status.
    if (roles.includes('worker')) {
      worker = await startWorker({ config, database: ctx.database, store: ctx.search, loaders: documentLoaders() }, { logger: createLogger(config, { name: 'indexer' }), ...options.worker })
      const indexMetrics = worker.metrics
      ctx.metrics.register('index-worker', () => indexMetrics.families())
      print(`worker: ${worker.mode === 'amqp' ? 'outbox relay to RabbitMQ and index consumer' : 'index consumer of the embedded outbox queue'}`)
      media = await startMediaRole(ctx, options.media)
      print(`worker: media processing (${media.owner})`)
      webhooks = startWebhooksRole(ctx)
      print(`worker: webhook delivery (${webhooks.owner})`)
    }
    if (roles.includes('indexer')) {
      apps.indexer = await buildIndexerApp({ ...ctx, store: ctx.search, metrics: worker?.metrics ?? new IndexMetrics(), processMetrics: ctx.metrics, worker }, { config })
      await listen(apps.indexer, config, config.indexerHost, config.indexerPort)
      print(`indexer: http://${config.indexerHost}:${portOf(apps.indexer)}`)
    }
    if (config.metricsPort !== undefined) {
      const metricsApp = buildMetricsApp(ctx.metrics)
      await listen(metricsApp, config, config.metricsHost, config.metricsPort)
      apps.metrics = metricsApp
      print(`metrics: http://${config.metricsHost}:${portOf(metricsApp)}/metrics`)
    }
  }
}

async function startApi (ctx: AppContext, print: Print): Promise<FastifyInstance> {
  const { config } = ctx
  // The console's page is built from TypeScript now, so a broken build stops the start, not a visitor.
  const built = await consoleBundle()
  print(`console: built in ${built.buildMs} ms (${Math.round(built.script.length / 1024)} kB script), served at /console`)
  if (config.trustProxy !== false) {
    const app = await buildApp(ctx, { variant: 'api' })
    await listen(app, config, config.host, config.apiPort)
    print(`api: behind a TLS-terminating proxy on http://${config.host}:${portOf(app)} (X-Forwarded-Proto: https required)`)
    return app
  }
  const tls = await loadOrCreateTls(config)
  if (tls.generatedAt !== undefined) print(`Generated a self-signed certificate ${tls.generatedAt}`)
  print(`TLS certificate SHA-256 fingerprint: ${tls.fingerprint}`)
  const app = await buildApp(ctx, { variant: 'api', https: { key: tls.key, cert: tls.cert } })
  await listen(app, config, config.host, config.apiPort)
  print(`api: https://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${portOf(app)}`)
  return app
}

/** Where this process answers, for the CLI beside it (`server.json`, docs/cli.md). */
function addresses (config: Config, apps: RunningServer['apps']): Omit<RunningServerRecord, 'pid' | 'started_at'> {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host
  // Behind a TLS-terminating proxy the listener refuses plain requests: the proxy's address is the one to use.
  const api = config.trustProxy !== false ? config.publicApiUrl : `https://${host}:${portOf(apps.api as FastifyInstance)}`
  return {
    api_url: api,
    ...(apps.cdn === undefined ? {} : { cdn_url: `http://${host}:${portOf(apps.cdn)}` }),
    public_api_url: config.publicApiUrl,
    public_cdn_url: config.publicCdnUrl
  }
}

/** The port it listens on: the configured one, or the one the system chose for port 0. */
function portOf (app: FastifyInstance): number {
  return (app.server.address() as AddressInfo).port
}

/**
 * SIGINT and SIGTERM close the server: "Reelhouse stopping…", in-flight requests finish (within
 * SHUTDOWN_GRACE_SECONDS; connections still open then are closed), then "Reelhouse stopped" and exit 0.
 * A second signal while stopping exits at once.
 */
export function stopOnSignals (server: RunningServer, print: Print = console.log): void {
  let stopping = false
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      print(`Reelhouse: ${signal} again, exiting without waiting`)
      process.exit(1)
    }
    stopping = true
    print(`Reelhouse stopping… (${signal})`)
    server.close().then(() => {
      print('Reelhouse stopped')
      process.exit(0)
    }, (error: unknown) => {
      console.error(`Reelhouse did not stop cleanly: ${(error as Error).message}`)
      process.exit(1)
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

/** How each listener stops: within the grace period (connection-guard.ts). */
const stoppers = new WeakMap<FastifyInstance, () => Promise<void>>()

async function listen (app: FastifyInstance, config: Config, host: string, port: number): Promise<void> {
  stoppers.set(app, guardConnections(app, { headersTimeoutMs: config.requestHeadersTimeoutSeconds * 1000, graceMs: config.shutdownGraceSeconds * 1000 }))
  await app.listen({ host, port })
}
