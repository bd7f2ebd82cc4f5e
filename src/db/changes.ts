import type { Transaction } from 'kysely'
import type { DB } from './tables/index.ts'

/**
 * What a committed write changed, as the caches see it (docs/credits-and-cache.md, "Freshness"):
 * rows by table and id, a whole table of the account (`'*'`), or the whole account.
 */
export interface Invalidation {
  accountId: string
  /** Table name → changed ids; `'*'` among them means every row of that table in the account. */
  tables: Record<string, string[]>
  /** Everything the account owns may have changed (a write that named nothing more precise). */
  everything?: boolean
}

/** Past this many ids of one table, a change names the whole table: a bus message stays small. */
export const MAX_IDS_PER_TABLE = 64

/**
 * Who hears about writes: `withAccountLock` calls `inTransaction` before the commit (PostgreSQL
 * `NOTIFY` goes there, so a rolled-back write notifies nobody) and `committed` after it, before the
 * request's answer is sent. Set on the `Database` by the process that owns the caches.
 */
export interface WriteObserver {
  inTransaction: (trx: Transaction<DB>, change: Invalidation) => Promise<void>
  committed: (change: Invalidation) => Promise<void>
}

/** The changes one transaction collects, noted by the kit's writes and the outbox as they run. */
export class ChangeSet {
  readonly tables = new Map<string, Set<string>>()
  everything = false

  note (table: string, id: string): void {
    let ids = this.tables.get(table)
    if (ids === undefined) this.tables.set(table, ids = new Set())
    if (ids.has('*')) return
    if (ids.size >= MAX_IDS_PER_TABLE) {
      ids.clear()
      ids.add('*')
      return
    }
    ids.add(id)
  }

  /** The invalidation to publish; a write that noted nothing invalidates the whole account, to be safe. */
  toInvalidation (accountId: string): Invalidation {
    const tables: Record<string, string[]> = {}
    for (const [table, ids] of this.tables) tables[table] = [...ids]
    return this.everything || this.tables.size === 0 ? { accountId, tables, everything: true } : { accountId, tables }
  }
}

/**
 * The change set of each `withAccountLock` transaction, by its transaction object. Not an
 * AsyncLocalStorage: entering one switches on promise hooks for the whole process, which every
 * request would then pay for (docs/benchmarks.md).
 */
const changeSets = new WeakMap<object, ChangeSet>()

/** Makes `trx` collect the changes its writes note (one set per `withAccountLock` transaction). */
export function collectChangesOf (trx: object, changes: ChangeSet): void {
  changeSets.set(trx, changes)
}

/**
 * Notes that a row changed in the write running on `runner`; on anything but a `withAccountLock`
 * transaction it does nothing. A lock transaction that noted nothing invalidates its whole account.
 */
export function noteChange (runner: object, table: string, id: string): void {
  changeSets.get(runner)?.note(table, id)
}

/** Two observers of one database, in order (several contexts over one database, as tests build them). */
export function chainObservers (first: WriteObserver | undefined, second: WriteObserver): WriteObserver {
  if (first === undefined) return second
  return {
    inTransaction: async (trx, change) => { await first.inTransaction(trx, change); await second.inTransaction(trx, change) },
    committed: async (change) => { await first.committed(change); await second.committed(change) }
  }
}

/** Not a table: a user whose secret, role or existence changed; everything that user signed is purged. */
export const CREDENTIALS = 'credentials'

/** Notes that a user's key no longer means what it did (rotated, role changed, deleted). */
export function noteCredentialChange (runner: object, userId: string): void {
  noteChange(runner, CREDENTIALS, userId)
}
