import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../src/app/context.ts'
import { loadConfig } from '../../src/config/index.ts'
import { migrateToLatest, openDatabase, type Database } from '../../src/db/index.ts'
import { signedPath } from '../../src/signing/index.ts'
import { openTestDatabase } from '../support/backends.ts'
import { adminOf, TEST_MASTER_KEY, type Caller } from '../support/app.ts'
import { connectTestRedis, deleteKeys, uniquePrefix } from '../credits/redis-test-connection.ts'

/**
 * The documented propagation delay between processes (docs/credits-and-cache.md, "Freshness"): a
 * test polls another process no longer than this for a change to show.
 */
export const DOCUMENTED_DELAY_MS = 1000

export interface Deployment {
  name: string
  database: 'sqlite' | 'postgres'
  redis: boolean
  skip: string | false
}

/** SQLite and PostgreSQL, each with Redis (the bus between processes on SQLite is Redis pub/sub, on PostgreSQL NOTIFY). */
export function deployments (): Deployment[] {
  const noRedis = process.env.TEST_REDIS_URL ? false : 'TEST_REDIS_URL is not set'
  const noPg = process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set'
  return [
    { name: 'SQLite + Redis', database: 'sqlite', redis: true, skip: noRedis },
    { name: 'PostgreSQL + Redis', database: 'postgres', redis: true, skip: noPg || noRedis }
  ]
}

/** One server process: its own context (database connection, caches, bus) with an api and a cdn app. */
export interface Server {
  ctx: AppContext
  api: FastifyInstance
  cdn: FastifyInstance
  database: Database
}

export interface Pair {
  a: Server
  b: Server
  admin: Caller
  /** A signed URL, expires fixed far ahead so the cached variant keeps it. */
  url: (method: string, path: string, as?: Caller, body?: string) => string
  call: (on: FastifyInstance, method: string, path: string, options?: { as?: Caller, body?: object }) => Promise<LightMyRequestResponse>
  /** Starts process B again with a bus URL (through a proxy) of the test's choosing. */
  restartB: (env: Record<string, string>) => Promise<Server>
  close: () => Promise<void>
}

const FAR = Math.floor(Date.UTC(2031, 0, 1) / 1000)

/**
 * Two server processes over one database and one Redis: each its own context, connections, caches and
 * bus subscription (in one test process, which the contexts do not share anything through).
 */
export async function startPair (deployment: Deployment, envB: Record<string, string> = {}): Promise<Pair> {
  const dirs = [mkdtempSync(join(tmpdir(), 'reelhouse-a-')), mkdtempSync(join(tmpdir(), 'reelhouse-b-'))]
  const prefix = uniquePrefix('fresh')
  let open: () => Promise<Database>
  let dropDatabase: () => Promise<void>
  if (deployment.database === 'sqlite') {
    const file = `sqlite:${join(dirs[0], 'shared.db')}`
    const first = await openDatabase(file)
    await migrateToLatest(first.db)
    await first.close()
    open = async () => await openDatabase(file)
    dropDatabase = async () => {}
  } else {
    const schemaOwner = await openTestDatabase('postgres')
    open = async () => await openDatabase(schemaOwner.url, { schema: schemaOwner.schema, poolSize: 4 })
    dropDatabase = schemaOwner.close
  }
  const baseEnv = (dir: string): Record<string, string> => ({
    REELHOUSE_DATA_DIR: dir,
    REELHOUSE_MASTER_KEY: TEST_MASTER_KEY,
    LOG_LEVEL: 'silent',
    CDN_TTL_SECONDS: '300',
    INVALIDATION_HEARTBEAT_MS: '200',
    ...(deployment.redis ? { REDIS_URL: process.env.TEST_REDIS_URL as string } : {})
  })
  const start = async (dir: string, env: Record<string, string>): Promise<Server> => {
    const database = await open()
    const ctx = await createContext(loadConfig({ ...baseEnv(dir), ...env }), { database, redisKeyPrefix: prefix })
    const api = await buildApp(ctx, { variant: 'api', logger: false })
    const cdn = await buildApp(ctx, { variant: 'cdn', logger: false })
    return { ctx, api, cdn, database }
  }
  const stop = async (server: Server): Promise<void> => {
    await server.api.close()
    await server.cdn.close()
    await server.ctx.close()
    await server.database.close()
  }
  const a = await start(dirs[0], {})
  let b = await start(dirs[1], envB)
  const created = await a.ctx.services.accounts.create('Freshness account')
  const admin: Caller = adminOf(created)
  const url: Pair['url'] = (method, path, as = admin, body) =>
    signedPath({ apiKey: as.apiKey, secret: as.secret, method, path, body, expires: FAR })
  const pair: Pair = {
    a,
    b,
    admin,
    url,
    call: async (on, method, path, options = {}) => {
      const body = options.body === undefined ? undefined : JSON.stringify(options.body)
      return await on.inject({ method: method as 'GET', url: url(method, path, options.as, body), payload: body, headers: body === undefined ? {} : { 'content-type': 'application/json' } })
    },
    restartB: async (env) => {
      await stop(b)
      b = await start(dirs[1], env)
      pair.b = b
      return b
    },
    close: async () => {
      await stop(pair.b)
      await stop(a)
      await dropDatabase()
      if (deployment.redis) {
        const redis = await connectTestRedis()
        try { await deleteKeys(redis, prefix) } finally { await redis.quit() }
      }
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    }
  }
  return pair
}

/**
 * Polls `check` until it holds, for at most `limitMs`; resolves to the milliseconds it took, or throws
 * with the last value seen. Used for what another process must show within the documented delay.
 */
export async function within (limitMs: number, check: () => Promise<boolean>, what: string): Promise<number> {
  const started = performance.now()
  for (;;) {
    if (await check()) return performance.now() - started
    if (performance.now() - started > limitMs) throw new Error(`${what}: not seen within ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/**
 * A TCP proxy in a child process, to cut a connection the way a network or a crash does: killing it
 * with SIGKILL closes every connection through it at once.
 */
export interface Proxy { port: number, kill: () => Promise<void> }

export async function startProxy (target: { host: string, port: number }, port = 0): Promise<Proxy> {
  const listenPort = port === 0 ? await freePort() : port
  const source = `
    const net = require('node:net')
    net.createServer((client) => {
      const upstream = net.connect(${target.port}, ${JSON.stringify(target.host)})
      client.pipe(upstream).pipe(client)
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
    }).listen(${listenPort}, '127.0.0.1', () => process.stdout.write('listening\\n'))`
  const child: ChildProcess = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => { resolve() })
    child.once('exit', (code) => { reject(new Error(`proxy exited with ${String(code)}`)) })
  })
  return {
    port: listenPort,
    kill: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
    }
  }
}

async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port
      server.close(() => { resolve(port) })
    })
    server.on('error', reject)
  })
}
