import { sql, type Kysely, type Transaction } from 'kysely'
import { ChangeSet, collectChangesOf } from './changes.ts'
import { commitHook } from './commit-hook.ts'
import type { Invalidation } from './changes.ts'
import type { Database } from './index.ts'
import type { DB } from './tables/index.ts'

type Writer = Pick<Database, 'db' | 'dialect' | 'writes' | 'effects'>

/**
 * Runs `work` in one transaction that holds the account's write lock: every write of a resource goes
 * through here, so invariants that span rows (one default player, unique sibling label names, the last
 * administrator, read-merge-write of a PATCH) hold against concurrent writers. PostgreSQL locks the
 * account row; SQLite needs nothing more, because it runs one write transaction at a time.
 *
 * The repositories' writes record what they change (src/db/changes.ts). After `work`, in the same
 * transaction, the database's write effects derive what must commit with those changes (the outbox
 * entries: no service names them); then the request's commit hook (src/db/commit-hook.ts) stores what
 * `work` returned, the request's answer; then the write observer (`database.writes`) hears what changed,
 * in the transaction and once committed, before the answer is sent.
 * @example await withAccountLock(database, caller.accountId, async (trx) => await repo.insert(caller.accountId, row, trx))
 */
export async function withAccountLock<T> (database: Writer, accountId: string, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return await write(database, accountId, work, true)
}

/**
 * A write that needs no invariant spanning rows, without the account's lock: one statement on a row of
 * its own (a media progress tick). Its changes reach the write effects and the caches as any write's do;
 * it stores no request answer.
 */
export async function withRowWrite<T> (database: Writer, accountId: string, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return await write(database, accountId, work, false)
}

async function write<T> (database: Writer, accountId: string, work: (trx: Transaction<DB>) => Promise<T>, locked: boolean): Promise<T> {
  const changes = new ChangeSet()
  let change: Invalidation | undefined
  const result = await database.db.transaction().execute(async (trx) => {
    collectChangesOf(trx, changes)
    if (locked) await lockAccount(trx, database.dialect, accountId)
    const result = await work(trx)
    if (database.effects !== undefined && changes.records.size > 0) await database.effects(trx, accountId, [...changes.records.values()])
    if (locked) await commitHook()?.(trx, result)
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
