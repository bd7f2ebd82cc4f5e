import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'

/** The better-sqlite3 connection under each SQLite Kysely instance (the root one, not its transactions). */
const handles = new WeakMap<Kysely<any>, SQLite.Database>()

export function registerSqliteHandle (db: Kysely<any>, handle: SQLite.Database): void {
  handles.set(db, handle)
}

/**
 * The connection to run a statement on directly, or undefined: when `runner` is not a root SQLite
 * instance, or a transaction is open on its connection. Kysely serialises the one SQLite connection
 * with a lock that a transaction holds until it ends; a direct read while one is open would see its
 * uncommitted rows, so those reads wait for the lock like any other query.
 */
export function idleSqliteHandle (runner: Kysely<any>): SQLite.Database | undefined {
  const handle = handles.get(runner)
  return handle === undefined || handle.inTransaction ? undefined : handle
}

/** The better-sqlite3 connection under a root SQLite instance (undefined on PostgreSQL). */
export function sqliteHandleOf (db: Kysely<any>): SQLite.Database | undefined {
  return handles.get(db)
}
