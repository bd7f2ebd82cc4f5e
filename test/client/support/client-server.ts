import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { Reelhouse, type ClientOptions } from 'reelhouse/client'
import { buildApp } from '../../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../../src/app/context.ts'
import { loadConfig } from '../../../src/config/index.ts'
import { buildIndexerApp, IndexMetrics } from '../../../src/indexer/index.ts'
import { ManualClock } from '../../../src/lib/clock.ts'
import { adminOf, TEST_MASTER_KEY } from '../../support/app.ts'
import { openTestDatabase, type Backend, type TestDatabase } from '../../support/backends.ts'

export interface ClientServer {
  /** `http://127.0.0.1:<port>` of the API (plain HTTP: TLS has its own test). */
  baseUrl: string
  /** `http://127.0.0.1:<port>` of the cached variant. */
  cdnUrl: string
  /** `http://127.0.0.1:<port>` of the indexing service. */
  indexerUrl: string
  ctx: AppContext
  /** The server's clock: real time, unless a test holds it. */
  clock: FollowingClock
  admin: { accountId: string, accountCode: string, apiKey: string, secret: string, userId: string }
  /** A client of this server as the administrator (or with other options). */
  client: (options?: Partial<ClientOptions>) => Reelhouse
  close: () => Promise<void>
}

/**
 * The api, cdn and indexer listeners of one context over real sockets on loopback, on a fresh
 * database, for the client to talk to. Its clock is real time, so signatures the client makes are
 * valid, and a test may hold it at a moment (the end of a credit window).
 */
export async function startClientServer (backend: Backend['name'], env: Record<string, string> = {}, options: { apiPort?: number } = {}): Promise<ClientServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-client-'))
  const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent', ...env })
  const clock = new FollowingClock(Date.now())
  const database: TestDatabase = await openTestDatabase(backend)
  const ctx = await createContext(config, { database, clock })
  const apps: FastifyInstance[] = [
    await buildApp(ctx, { variant: 'api', logger: false }),
    await buildApp(ctx, { variant: 'cdn', logger: false }),
    await buildIndexerApp({ ...ctx, store: ctx.search, metrics: new IndexMetrics() }, { config, logger: false })
  ]
  const [baseUrl, cdnUrl, indexerUrl] = await Promise.all(apps.map(async (app, index) => {
    await app.listen({ host: '127.0.0.1', port: index === 0 ? options.apiPort ?? 0 : 0 })
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  })) as [string, string, string]
  const created = await ctx.services.accounts.create('Client tests')
  const admin = adminOf(created)
  return {
    baseUrl,
    cdnUrl,
    indexerUrl,
    ctx,
    clock,
    admin,
    client: (options = {}) => new Reelhouse({ baseUrl, apiKey: admin.apiKey, secret: admin.secret, ...options }),
    close: async () => {
      for (const app of apps) await app.close()
      await ctx.close()
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** Real time, unless a test holds it still at a moment of its choosing (`hold`) until it lets go (`release`). */
export class FollowingClock extends ManualClock {
  #held: number | undefined
  override now (): number { return this.#held ?? Date.now() }
  override set (ms: number): void { this.#held = ms }
  override advance (ms: number): void { this.#held = this.now() + ms }
  hold (ms: number): void { this.#held = ms }
  release (): void { this.#held = undefined }
}

/**
 * A port free on loopback right now, for a server whose own address must be configured before it
 * listens (PUBLIC_API_URL: chunk URLs point at it).
 */
export async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => { resolve() }))
  return port
}
