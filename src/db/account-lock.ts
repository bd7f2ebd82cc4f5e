import { sql, type Kysely, type Transaction } from 'kysely'
import { commitHook } from './commit-hook.ts'
import type { Database } from './index.ts'
import type { DB } from './tables/index.ts'

/**
 * Runs `work` in one transaction that holds the account's write lock: every write of a resource goes
 * through here, so invariants that span rows (one default player, unique sibling label names, the last
 * administrator, read-merge-write of a PATCH) hold against concurrent writers. PostgreSQL locks the
 * account row; SQLite needs nothing more, because it runs one write transaction at a time.
 * What `work` returns is the request's answer: the commit hook of the request (src/db/commit-hook.ts)
 * stores it in the same transaction.
 * @example await withAccountLock(database, caller.accountId, async (trx) => await repo.insert(caller.accountId, row, trx))
 */
export async function withAccountLock<T> (database: Pick<Database, 'db' | 'dialect'>, accountId: string, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return await database.db.transaction().execute(async (trx) => {
    await lockAccount(trx, database.dialect, accountId)
    const result = await work(trx)
    await commitHook()?.(trx, result)
    return result
  })
}

/** The lock alone, for a transaction opened elsewhere (a dialect branch, named as such). */
export async function lockAccount (trx: Kysely<DB>, dialect: Database['dialect'], accountId: string): Promise<void> {
  if (dialect === 'postgres') await sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`.execute(trx)
}
