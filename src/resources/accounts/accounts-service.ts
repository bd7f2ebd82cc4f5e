import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import type { Caller } from '../../auth/caller.ts'
import type { Database, DB } from '../../db/index.ts'
import { ApiError } from '../../errors/index.ts'
import { apiTime, storedTime, type Clock } from '../../lib/clock.ts'
import { alnumId, hexId } from '../../lib/ids.ts'
import type { ApiUserWithSecret, UsersService } from '../users/index.ts'
import { createAccountsRepository, type AccountRow } from './accounts-repository.ts'
import type { ApiAccount } from './accounts-schemas.ts'

export interface AccountsDeps {
  database: Database
  clock: Clock
  users: Pick<UsersService, 'createIn'>
  /** Where the first start leaves the administrator's credentials. */
  dataDir: string
  /** CREDITS_PER_MINUTE: the allowance of an account that has none of its own. */
  defaultCreditsPerMinute: number
}

export interface CreatedAccount {
  account: { id: string, code: string, name: string }
  administrator: ApiUserWithSecret
}

/** The file, in the data directory, that keeps the first administrator's key and secret (owner-only). */
export const CREDENTIALS_FILE = 'admin-credentials.json'

/** Accounts (providers), the tenants: created and changed by an operator, never through the signed API, which only reads the caller's own. */
export function createAccountsService ({ database, clock, users, dataDir, defaultCreditsPerMinute }: AccountsDeps) {
  const accounts = createAccountsRepository(database.db)

  function toApi (row: AccountRow): ApiAccount {
    return {
      id: row.id,
      code: row.code,
      name: row.name,
      credits_per_minute: row.credits_per_minute ?? defaultCreditsPerMinute,
      credits_per_minute_source: row.credits_per_minute === null ? 'server_default' : 'account',
      created_at: apiTime(row.created_at) as string
    }
  }

  async function find (accountId: string): Promise<ApiAccount> {
    const row = await accounts.findById(accountId)
    if (row === undefined) throw new ApiError('account_not_found', `Account ${accountId} does not exist.`)
    return toApi(row)
  }

  /** Inserts an account with its first administrator. The account code prefixes every API key. */
  async function insertWithAdministrator (trx: Kysely<DB>, name: string): Promise<CreatedAccount> {
    const account = { id: hexId(), code: alnumId(28), name, credits_per_minute: null, created_at: storedTime(clock.now()) }
    await accounts.insert(account, trx)
    const administrator = await users.createIn(account, { name: 'Administrator', role: 'administrator' }, trx)
    return { account: { id: account.id, code: account.code, name }, administrator }
  }

  /** A new account with its first administrator, in one transaction. */
  async function create (name: string): Promise<CreatedAccount> {
    return await database.db.transaction().execute(async (trx) => await insertWithAdministrator(trx, name))
  }

  return {
    create,
    /** The caller's own account (`GET /v2/account`). */
    async own (caller: Caller): Promise<ApiAccount> {
      return await find(caller.accountId)
    },
    /**
     * The operator's setting of an account's allowance (null: back to CREDITS_PER_MINUTE). Each process
     * reads allowances at most once a minute, so a change takes effect everywhere within a minute.
     */
    async setCreditsPerMinute (accountId: string, creditsPerMinute: number | null): Promise<ApiAccount> {
      if (!await accounts.setCreditsPerMinute(accountId, creditsPerMinute)) throw new ApiError('account_not_found', `Account ${accountId} does not exist.`)
      return await find(accountId)
    },
    /**
     * First start: when no account exists, create one with an administrator, and keep its key and secret
     * in an owner-only file in the data directory. Returns the new account, or undefined if one existed.
     */
    async bootstrap (): Promise<CreatedAccount | undefined> {
      if (await accounts.count() > 0) return undefined
      // Checked again in the transaction, so of several processes starting together on an empty database
      // exactly one creates it. SQLite's write transactions run one at a time already; PostgreSQL's need
      // the table held (a dialect branch, named as such).
      const created = await database.db.transaction().execute(async (trx) => {
        if (database.dialect === 'postgres') await sql`LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE`.execute(trx)
        return await accounts.count(trx) > 0 ? undefined : await insertWithAdministrator(trx, 'Default account')
      })
      if (created === undefined) return undefined
      mkdirSync(dataDir, { recursive: true, mode: 0o700 })
      writeFileSync(join(dataDir, CREDENTIALS_FILE), JSON.stringify({
        account_id: created.account.id,
        account_code: created.account.code,
        api_key: created.administrator.api_key,
        secret: created.administrator.secret
      }, null, 2) + '\n', { mode: 0o600 })
      return created
    }
  }
}

export type AccountsService = ReturnType<typeof createAccountsService>
