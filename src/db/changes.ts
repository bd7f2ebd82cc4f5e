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

/** What a write did to a row. */
export type ChangeOperation = 'insert' | 'update' | 'delete'

/**
 * One row a write changed, exactly: the outbox entries are derived from these in the writing transaction
 * (src/outbox/derive-entries.ts), and so can anything else that must commit with the write.
 */
export interface ChangeRecord {
  table: string
  /** The row's id; for a part table (`asset_labels`, `asset_metadata`) the id of the resource the row belongs to. */
  id: string
  operation: ChangeOperation
  /** An update's columns (what it set, whether or not the value differs). */
  columns?: readonly string[]
  /** The row's status before and after the write, for a table that has one (assets); null where there is no row. */
  status?: { before: string | null, after: string | null }
}

/**
 * What commits with every write, derived from its change records inside its transaction, before the
 * request's commit hook and the caches' observer: the outbox entries (src/outbox/derive-entries.ts), and
 * whatever else must be recorded from the same records. The composition root sets it on the `Database`
 * (src/app/resource-document-loaders.ts); it may write rows and note changes for the caches, and must not record more.
 */
export type WriteEffects = (trx: Transaction<DB>, accountId: string, records: readonly ChangeRecord[]) => Promise<void>

/** The changes one transaction collects, noted by the repositories' writes as they run. */
export class ChangeSet {
  /** For the caches: ids by table, a large set collapsed to `'*'` so a bus message stays small. */
  readonly tables = new Map<string, Set<string>>()
  /** Exact, one per row (several writes of one row merge; see `record`). */
  readonly records = new Map<string, ChangeRecord>()
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

  /**
   * Adds what a write did to a row. Several writes of one row in one transaction make one record: the
   * first status before and the last after; an insert stays an insert (a delete after it makes it a
   * delete), a delete followed by an insert is an update; columns add up.
   */
  record (change: ChangeRecord): void {
    const key = `${change.table}\u0000${change.id}`
    const earlier = this.records.get(key)
    if (earlier === undefined) {
      this.records.set(key, change)
      return
    }
    const operation = change.operation === 'delete' ? 'delete' : earlier.operation === 'insert' ? 'insert' : 'update'
    const columns = earlier.columns === undefined ? change.columns : change.columns === undefined ? earlier.columns : [...new Set([...earlier.columns, ...change.columns])]
    const status = earlier.status === undefined ? change.status : change.status === undefined ? earlier.status : { before: earlier.status.before, after: change.status.after }
    this.records.set(key, { table: change.table, id: change.id, operation, ...(columns !== undefined ? { columns } : {}), ...(status !== undefined ? { status } : {}) })
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
 * Notes for the caches that a row changed in the write running on `runner`; on anything but a
 * `withAccountLock` (or `withRowWrite`) transaction it does nothing. A transaction that noted nothing
 * invalidates its whole account.
 */
export function noteChange (runner: object, table: string, id: string): void {
  changeSets.get(runner)?.note(table, id)
}

/**
 * Records what a write did to a row, and notes it for the caches under `cacheTable` (the table whose
 * cached answers show the row: `assets` for a row of `asset_labels`). Every repository write of a
 * resource calls this (the kit's writes do it themselves); what commits with the write follows from it.
 */
export function noteWrite (runner: object, change: ChangeRecord, cacheTable: string = change.table): void {
  const changes = changeSets.get(runner)
  if (changes === undefined) return
  changes.record(change)
  changes.note(cacheTable, change.id)
}

/** `noteWrite` for many rows of one table that a statement changed alike (`RETURNING` ids). */
export function noteWrites (runner: object, table: string, ids: readonly string[], operation: ChangeOperation, columns?: readonly string[], cacheTable: string = table): void {
  const changes = changeSets.get(runner)
  if (changes === undefined) return
  for (const id of ids) {
    changes.record(columns === undefined ? { table, id, operation } : { table, id, operation, columns })
    changes.note(cacheTable, id)
  }
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
