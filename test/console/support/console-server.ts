import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../../src/app/context.ts'
import type { UserRole } from '../../../src/auth/roles.ts'
import { loadConfig } from '../../../src/config/index.ts'
import { signedPath } from '../../../src/signing/index.ts'
import { loadOrCreateTls } from '../../../src/tls/index.ts'
import { FollowingClock } from '../../client/support/client-server.ts'
import { TEST_MASTER_KEY, type Caller } from '../../support/app.ts'
import { openTestDatabase } from '../../support/backends.ts'

export interface ConsoleServer {
  /** `https://127.0.0.1:<port>`: the api listener with its first-start self-signed certificate. */
  baseUrl: string
  ctx: AppContext
  app: FastifyInstance
  admin: Caller
  /** A user of the admin's account with this role. */
  user: (role: UserRole) => Promise<Caller>
  /** A signed request through `app.inject`, as `as` (default the administrator). */
  signed: (method: string, path: string, options?: { body?: string | object, as?: Caller, params?: Record<string, string>, headers?: Record<string, string> }) => Promise<LightMyRequestResponse>
  close: () => Promise<void>
}

/** A port nothing listens on now, so PUBLIC_API_URL can name the port before the listener opens. */
async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>((resolve) => server.close(() => { resolve() }))
  return port
}

/**
 * The api listener as `reelhouse serve` runs it (HTTPS, the generated certificate, real time), on a fresh
 * SQLite database and data directory, with PUBLIC_API_URL naming the listener itself.
 */
export async function startConsoleServer (env: Record<string, string> = {}): Promise<ConsoleServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-console-'))
  const port = await freePort()
  const baseUrl = `https://127.0.0.1:${port}`
  const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent', PUBLIC_API_URL: baseUrl, ...env })
  const database = await openTestDatabase('sqlite')
  const ctx = await createContext(config, { database, clock: new FollowingClock(Date.now()) })
  const tls = await loadOrCreateTls(config)
  const app = await buildApp(ctx, { variant: 'api', https: { key: tls.key, cert: tls.cert }, logger: false })
  await app.listen({ host: '127.0.0.1', port })
  const created = await ctx.services.accounts.create('Console tests')
  const admin: Caller = {
    accountId: created.account.id,
    accountCode: created.account.code,
    apiKey: created.administrator.api_key,
    secret: created.administrator.secret,
    userId: created.administrator.id
  }
  return {
    baseUrl,
    ctx,
    app,
    admin,
    user: async (role) => {
      const user = await ctx.services.users.createIn({ id: admin.accountId, code: admin.accountCode }, { name: `${role.replace('_', ' ')} user`, role })
      return { ...admin, apiKey: user.api_key, secret: user.secret, userId: user.id }
    },
    signed: async (method, path, options = {}) => {
      const caller = options.as ?? admin
      const body = options.body === undefined || typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
      const url = signedPath({ apiKey: caller.apiKey, secret: caller.secret, method, path, params: options.params, body, expires: Math.floor(Date.now() / 1000) + 600 })
      return await app.inject({ method: method as 'GET', url, payload: body, headers: options.headers })
    },
    close: async () => {
      await app.close()
      await ctx.close()
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
