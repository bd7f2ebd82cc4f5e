import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp, type Variant } from '../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../src/app/context.ts'
import { loadConfig, type Config } from '../../src/config/index.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { signedPath } from '../../src/signing/index.ts'
import { openTestDatabase, type Backend, type TestDatabase } from '../support/backends.ts'
import { adminOf, TEST_MASTER_KEY, type Caller, type SignedOptions } from '../support/app.ts'
import { connectTestRedis, deleteKeys, redisSkip, uniquePrefix } from '../credits/redis-test-connection.ts'

/** The two ways to hold credit counters and cached answers; every test here runs on both. */
export interface StoreKind { name: 'in-process' | 'redis', skip: string | false }

export function storeKinds (): StoreKind[] {
  return [{ name: 'in-process', skip: false }, { name: 'redis', skip: redisSkip }]
}

/** One process: its own context (credit store, cache, Redis connection) and app. */
export interface Instance { app: FastifyInstance, ctx: AppContext }

export interface CallOptions extends SignedOptions {
  /** The client address the request comes from (default 127.0.0.1). */
  remoteAddress?: string
}

export interface Harness {
  clock: ManualClock
  config: Config
  /** The first `api` instance; accounts are created through it. */
  api: Instance
  admin: Caller
  /** Another process over the same database and, with Redis, the same counters and cache. */
  instance: (variant?: Variant) => Promise<Instance>
  /** The signed relative URL of a request, `expires` ten minutes ahead by the manual clock unless given. */
  url: (method: string, path: string, options?: SignedOptions) => string
  /** A signed request through `inject` on the given instance. */
  signed: (on: Instance, method: string, path: string, options?: CallOptions) => Promise<LightMyRequestResponse>
  /** A new account with its administrator; `creditsPerMinute` sets its own allowance. */
  account: (creditsPerMinute?: number) => Promise<Caller>
  close: () => Promise<void>
}

export async function startHarness (backend: Backend['name'], store: StoreKind, env: Record<string, string> = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-credits-'))
  const redisEnv: Record<string, string> = store.name === 'redis' ? { REDIS_URL: process.env.TEST_REDIS_URL as string } : {}
  const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent', ...redisEnv, ...env })
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 10, 0, 15))
  const database: TestDatabase = await openTestDatabase(backend)
  // Every run (and every test file) gets its own keys: the manual clock puts all runs in the same minute.
  const redisKeyPrefix = uniquePrefix('http')
  const instances: Instance[] = []

  const instance = async (variant: Variant = 'api'): Promise<Instance> => {
    const ctx = await createContext(config, { database, clock, redisKeyPrefix })
    const app = await buildApp(ctx, { variant, logger: false })
    instances.push({ app, ctx })
    return { app, ctx }
  }
  const api = await instance('api')

  const account = async (creditsPerMinute?: number): Promise<Caller> => {
    const created = await api.ctx.services.accounts.create('Credits test account')
    if (creditsPerMinute !== undefined) {
      await api.ctx.db.updateTable('accounts').set({ credits_per_minute: creditsPerMinute }).where('id', '=', created.account.id).execute()
    }
    return adminOf(created)
  }
  const admin = await account()

  const url: Harness['url'] = (method, path, options = {}) => {
    const caller = options.as ?? admin
    return signedPath({
      apiKey: caller.apiKey,
      secret: caller.secret,
      method,
      path,
      params: options.params,
      body: bodyOf(options.body),
      expires: options.expires ?? Math.floor(clock.now() / 1000) + 600
    })
  }

  const signed: Harness['signed'] = async (on, method, path, options = {}) => {
    return await on.app.inject({
      method: method as 'GET',
      url: url(method, path, options),
      payload: bodyOf(options.body),
      headers: options.headers,
      remoteAddress: options.remoteAddress
    })
  }

  return {
    clock,
    config,
    api,
    admin,
    instance,
    url,
    signed,
    account,
    close: async () => {
      for (const { app, ctx } of instances.reverse()) {
        await app.close()
        await ctx.close()
      }
      await database.close()
      if (store.name === 'redis') {
        const redis = await connectTestRedis()
        try { await deleteKeys(redis, redisKeyPrefix) } finally { await redis.quit() }
      }
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

function bodyOf (body: SignedOptions['body']): string | Buffer | undefined {
  return body === undefined || typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body)
}

/** The credit headers of a response as numbers. */
export function creditHeaders (res: LightMyRequestResponse | Response): { credits: number, reset: number } {
  const get = (name: string): string | undefined => {
    if (res instanceof Response) return res.headers.get(name) ?? undefined
    const value = res.headers[name]
    return typeof value === 'string' ? value : undefined
  }
  const credits = get('x-ratelimit-credits')
  const reset = get('x-ratelimit-reset')
  if (credits === undefined || reset === undefined) throw new Error(`no credit headers on a ${res instanceof Response ? res.status : res.statusCode}`)
  return { credits: Number(credits), reset: Number(reset) }
}
