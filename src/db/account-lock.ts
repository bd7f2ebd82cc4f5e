import { sql, type Kysely, type Transaction } from 'kysely'
import { ChangeSet, collectChangesOf } from './changes.ts'
import { commitHook } from './commit-hook.ts'
import type { Invalidation } from './changes.ts'
import type { Database } from './index.ts'
import type { DB } from './tables/index.ts'

/**
 * Runs `work` in one transaction that holds the account's write lock: every write of a resource goes
 * through here, so invariants that span rows (one default player, unique sibling label names, the last
 * administrator, read-merge-write of a PATCH) hold against concurrent writers. PostgreSQL locks the
 * account row; SQLite needs nothing more, because it runs one write transaction at a time.
 * What `work` returns is the request's answer: the commit hook of the request (src/db/commit-hook.ts)
 * stores it in the same transaction, and the database's write observer (`database.writes`) hears what
 * the write changed: in the transaction and once committed, before the answer is sent.
 * @example await withAccountLock(database, caller.accountId, async (trx) => await repo.insert(caller.accountId, row, trx))
 */
export async function withAccountLock<T> (database: Pick<Database, 'db' | 'dialect' | 'writes'>, accountId: string, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const changes = new ChangeSet()
  let change: Invalidation | undefined
  const result = await database.db.transaction().execute(async (trx) => {
    collectChangesOf(trx, changes)
    await lockAccount(trx, database.dialect, accountId)
    const result = await work(trx)
    await commitHook()?.(trx, result)
    // After the write's own work, so everything it changed is noted; inside, so a rollback tells nobody.
    change = changes.toInvalidation(accountId)
    await database.writes?.inTransaction(trx, change)
    return result
  })
  // Committed: the caches of this process forget what changed before the answer is sent (docs/credits-and-cache.md).
  if (change !== undefined) await database.writes?.committed(change)
  return result
}

/** The lock alone, for a transaction opened elsewhere (a dialect branch, named as such). */
export async function lockAccount (trx: Kysely<DB>, dialect: Database['dialect'], accountId: string): Promise<void> {
  if (dialect === 'postgres') await sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`.execute(trx)
}
