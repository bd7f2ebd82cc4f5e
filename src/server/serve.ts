import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { pino } from 'pino'
import { bootstrapFirstAccount } from '../accounts/accounts-service.ts'
import { analyticsPlacement } from '../analytics/http/index.ts'
import { buildApp } from '../app/build-app.ts'
import { createContext, type AppContext } from '../app/context.ts'
import type { Config, ProcessRole } from '../config/index.ts'
import { buildIndexerApp, IndexMetrics, startWorker, type WorkerOptions } from '../indexer/index.ts'
import { loadOrCreateTls } from '../tls/index.ts'

export interface RunningServer {
  ctx: AppContext
  apps: Partial<Record<ProcessRole, FastifyInstance>>
  close: () => Promise<void>
}

type Print = (line: string) => void

export interface ServeOptions {
  /** Tuning of the index worker (tests shorten its lease). */
  worker?: WorkerOptions
}

/**
 * Starts the given roles in this process (all of them by default: the embedded deployment).
 * Output meant for the operator (first credentials, certificate fingerprint) goes to `print`, never
 * to the JSON logs.
 */
export async function serve (config: Config, roles: readonly ProcessRole[], print: Print = console.log, options: ServeOptions = {}): Promise<RunningServer> {
  // Only the api process opens an embedded (DuckDB) analytics store: it admits one process (product.md §9).
  const ctx = await createContext(config, { analytics: analyticsPlacement(config, roles) })
  const created = await bootstrapFirstAccount(ctx)
  if (created !== undefined) {
    print('Created the first account and its administrator. The secret is shown only this once:')
    print(`  account id: ${created.account.id}`)
    print(`  api key:    ${created.administrator.api_key}`)
    print(`  secret:     ${created.administrator.secret}`)
    print(`  (also written to ${config.dataDir}/admin-credentials.json, readable by its owner only)`)
  }
  const apps: RunningServer['apps'] = {}
  if (roles.includes('api')) apps.api = await startApi(ctx, print)
  if (roles.includes('cdn')) {
    apps.cdn = await buildApp(ctx, { variant: 'cdn' })
    await listen(apps.cdn, config.host, config.cdnPort)
    print(`cdn: cached plain-HTTP variant on http://${config.host}:${config.cdnPort}`)
  }
  // Indexing (product.md §10): the worker relays and consumes the outbox; the indexer serves reindex and queue status.
  const worker = roles.includes('worker')
    ? await startWorker({ config, database: ctx.database, store: ctx.search }, { logger: pino({ level: config.logLevel, name: 'indexer' }), ...options.worker })
    : undefined
  if (worker !== undefined) print(`worker: ${worker.mode === 'amqp' ? 'outbox relay to RabbitMQ and index consumer' : 'index consumer of the embedded outbox queue'}`)
  if (roles.includes('indexer')) {
    apps.indexer = await buildIndexerApp({ ...ctx, store: ctx.search, metrics: worker?.metrics ?? new IndexMetrics(), worker }, { config })
    await listen(apps.indexer, config.indexerHost, config.indexerPort)
    print(`indexer: http://${config.indexerHost}:${(apps.indexer.server.address() as AddressInfo).port}`)
  }
  let closing: Promise<void> | undefined
  const close = async (): Promise<void> => {
    closing ??= (async () => {
      // Stop accepting and finish in-flight requests first, then close what they were using.
      await Promise.all(Object.values(apps).map(async (app) => { await app.close() }))
      await worker?.stop()
      await ctx.close()
    })()
    return await closing
  }
  return { ctx, apps, close }
}

async function startApi (ctx: AppContext, print: Print): Promise<FastifyInstance> {
  const { config } = ctx
  if (config.trustProxy) {
    const app = await buildApp(ctx, { variant: 'api' })
    await listen(app, config.host, config.apiPort)
    print(`api: behind a TLS-terminating proxy on http://${config.host}:${config.apiPort} (X-Forwarded-Proto: https required)`)
    return app
  }
  const tls = await loadOrCreateTls(config)
  if (tls.generatedAt !== undefined) print(`Generated a self-signed certificate ${tls.generatedAt}`)
  print(`TLS certificate SHA-256 fingerprint: ${tls.fingerprint}`)
  const app = await buildApp(ctx, { variant: 'api', https: { key: tls.key, cert: tls.cert } })
  await listen(app, config.host, config.apiPort)
  print(`api: https://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.apiPort}`)
  return app
}

async function listen (app: FastifyInstance, host: string, port: number): Promise<void> {
  await app.listen({ host, port })
  app.server.headersTimeout = 15_000
}
