import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../../src/app/context.ts'
import { loadConfig } from '../../../src/config/index.ts'
import { migrateToLatest, openDatabase, type Database } from '../../../src/db/index.ts'
import { ManualClock } from '../../../src/lib/clock.ts'
import { signedPath } from '../../../src/signing/index.ts'
import { adminOf, TEST_MASTER_KEY, type Caller } from '../../support/app.ts'
import { openTestDatabase, type Backend } from '../../support/backends.ts'

export interface Instance { app: FastifyInstance, ctx: AppContext, database: Database }

export interface TwoApps {
  /** Two apps with their own database connections (a SQLite file, or one PostgreSQL schema): two processes, as far as the database can tell. */
  a: Instance
  b: Instance
  clock: ManualClock
  admin: Caller
  /** A signed request through `app.inject`, with optional headers. */
  send: (on: Instance, method: string, path: string, options?: { body?: unknown, headers?: Record<string, string>, as?: Caller }) => Promise<LightMyRequestResponse>
  close: () => Promise<void>
}

/** Two apps over one database, sharing a manual clock. */
export async function twoAppsOnOneDatabase (backend: Backend['name']): Promise<TwoApps> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-two-apps-'))
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 10, 0, 0))
  const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent' })
  let first: Database & { close: () => Promise<void> }
  let second: Database
  if (backend === 'sqlite') {
    first = await openDatabase(`sqlite:${join(dataDir, 'shared.sqlite')}`)
    await migrateToLatest(first.db)
    second = await openDatabase(`sqlite:${join(dataDir, 'shared.sqlite')}`)
  } else {
    first = await openTestDatabase('postgres')
    const { url, schema } = first as Awaited<ReturnType<typeof openTestDatabase>>
    second = await openDatabase(url, { schema, poolSize: 5 })
  }
  const instance = async (database: Database): Promise<Instance> => {
    const ctx = await createContext(config, { database, clock })
    return { app: await buildApp(ctx, { logger: false }), ctx, database }
  }
  const a = await instance(first)
  const b = await instance(second)
  const created = await a.ctx.services.accounts.create('Two apps')
  const admin: Caller = adminOf(created)
  return {
    a,
    b,
    clock,
    admin,
    send: async (on, method, path, options = {}) => {
      const caller = options.as ?? admin
      const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
      const url = signedPath({ apiKey: caller.apiKey, secret: caller.secret, method, path, body, expires: Math.floor(clock.now() / 1000) + 600 })
      return await on.app.inject({ method: method as 'POST', url, payload: body, headers: options.headers })
    },
    close: async () => {
      for (const { app, ctx } of [b, a]) {
        await app.close()
        await ctx.close()
      }
      await second.close()
      await first.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
