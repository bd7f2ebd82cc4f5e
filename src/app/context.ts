import type { Kysely } from 'kysely'
import { createAccountsRepository, type AccountsRepository } from '../accounts/accounts-repository.ts'
import type { Config } from '../config/index.ts'
import { migrateToLatest, openDatabase, type Database, type DB } from '../db/index.ts'
import { systemClock, type Clock } from '../lib/clock.ts'
import { PageTokens } from '../paging/index.ts'
import { loadMasterKey, SecretBox } from '../secrets/index.ts'
import { createUsersRepository, type UsersRepository } from '../users/users-repository.ts'

/**
 * Everything a request handler may need, built once per process: the database, the clock, the key
 * material and the repositories. Tests build one per test with their own database and clock.
 */
export interface AppContext {
  config: Config
  database: Database
  db: Kysely<DB>
  clock: Clock
  secrets: SecretBox
  pageTokens: PageTokens
  accounts: AccountsRepository
  users: UsersRepository
  /** Closes what the context opened (in reverse order of opening). */
  close: () => Promise<void>
  /** Registers a resource to close with the context. */
  onClose: (fn: () => Promise<void>) => void
}

export interface ContextOptions {
  clock?: Clock
  /** An already open database (tests); otherwise `config.databaseUrl` is opened and migrated. */
  database?: Database
}

export async function createContext (config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const database = options.database ?? await openDatabase(config.databaseUrl)
  if (options.database === undefined) await migrateToLatest(database.db)
  const secrets = new SecretBox(loadMasterKey(config))
  const closers: Array<() => Promise<void>> = []
  if (options.database === undefined) closers.push(database.close)
  return {
    config,
    database,
    db: database.db,
    clock: options.clock ?? systemClock,
    secrets,
    pageTokens: new PageTokens(secrets.tokenKey),
    accounts: createAccountsRepository(database.db),
    users: createUsersRepository(database.db),
    onClose: (fn) => { closers.push(fn) },
    close: async () => {
      for (const fn of closers.reverse()) await fn()
    }
  }
}
