import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { CreatedAccount } from '../../src/resources/accounts/index.ts'
import { buildApp, type Variant } from '../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../src/app/context.ts'
import type { UserRole } from '../../src/auth/roles.ts'
import { loadConfig, type Config } from '../../src/config/index.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { signedPath } from '../../src/signing/index.ts'
import type { Database } from '../../src/db/index.ts'
import { openTestDatabase, type Backend } from './backends.ts'

export const TEST_MASTER_KEY = '0f'.repeat(32)

export interface Caller {
  accountId: string
  accountCode: string
  apiKey: string
  secret: string
  userId: string
}

export interface SignedOptions {
  body?: string | Buffer | object
  as?: Caller
  expires?: number
  headers?: Record<string, string>
  /** Extra query parameters, added before signing. */
  params?: Record<string, string | number>
}

/** A request signed as `caller` (body serialised to JSON unless it is a string or bytes), through `app.inject`. */
export async function injectSigned (app: FastifyInstance, caller: Pick<Caller, 'apiKey' | 'secret'>, method: string, path: string, options: Omit<SignedOptions, 'as'> & { expires: number }): Promise<LightMyRequestResponse> {
  const body = options.body === undefined || typeof options.body === 'string' || Buffer.isBuffer(options.body)
    ? options.body
    : JSON.stringify(options.body)
  const url = signedPath({ apiKey: caller.apiKey, secret: caller.secret, method, path, params: options.params, body, expires: options.expires })
  return await app.inject({ method: method as 'GET', url, payload: body, headers: options.headers })
}

export interface TestApp {
  app: FastifyInstance
  ctx: AppContext
  clock: ManualClock
  config: Config
  admin: Caller
  /** A signed request through `app.inject` (method, path with optional query). */
  signed: (method: string, path: string, options?: SignedOptions) => Promise<LightMyRequestResponse>
  /** A user of `admin`'s account (or of `account`) with the given role. */
  userWithRole: (role: UserRole, account?: Caller) => Promise<Caller>
  /** A second account with its own administrator. */
  otherAccount: () => Promise<Caller>
  close: () => Promise<void>
}

/** A fresh app on a fresh database for one test (fastify/demo's `build(t)`), with a manual clock. */
/** The administrator of a newly created account, as the tests sign with it. */
export function adminOf (created: CreatedAccount): Caller {
  return {
    accountId: created.account.id,
    accountCode: created.account.code,
    apiKey: created.administrator.api_key,
    secret: created.administrator.secret,
    userId: created.administrator.id
  }
}

/** `database`: one the test opened itself (a file another process shares); closed with the app. */
export async function buildTestApp (backend: Backend['name'], env: Record<string, string> = {}, variant: Variant = 'api', opened?: Database): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-test-'))
  const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent', ...env })
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 10, 0, 0))
  const database = opened ?? await openTestDatabase(backend)
  const ctx = await createContext(config, { database, clock })
  const app = await buildApp(ctx, { variant, logger: false })

  const admin = adminOf(await ctx.services.accounts.create('Test account'))

  const signed: TestApp['signed'] = async (method, path, options = {}) =>
    await injectSigned(app, options.as ?? admin, method, path, { ...options, expires: options.expires ?? Math.floor(clock.now() / 1000) + 600 })

  return {
    app,
    ctx,
    clock,
    config,
    admin,
    signed,
    userWithRole: async (role, account = admin) => {
      const user = await ctx.services.users.createIn({ id: account.accountId, code: account.accountCode }, { name: `${role} user`, role })
      return { accountId: account.accountId, accountCode: account.accountCode, apiKey: user.api_key, secret: user.secret, userId: user.id }
    },
    otherAccount: async () => adminOf(await ctx.services.accounts.create('Other account')),
    close: async () => {
      await app.close()
      await ctx.close()
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** Every row of the given tables, to show that a refused request wrote nothing. */
export { snapshotTables as snapshot } from './snapshot.ts'
