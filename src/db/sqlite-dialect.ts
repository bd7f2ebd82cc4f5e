import type SQLite from 'better-sqlite3'
import { CompiledQuery, SqliteAdapter, SqliteDialect, SqliteDriver, type DatabaseConnection, type DialectAdapter, type Driver, type TransactionSettings } from 'kysely'

/**
 * Kysely's SQLite dialect with write transactions begun `IMMEDIATE`. Kysely begins every transaction
 * with a plain (deferred) `BEGIN`, which takes no lock until the first statement: a transaction that
 * reads first holds a read snapshot, and when it then writes while another process writes the same
 * file, SQLite refuses the upgrade at once with SQLITE_BUSY (SQLITE_BUSY_SNAPSHOT in WAL mode) without
 * calling the busy handler, since waiting could deadlock two upgraders. `BEGIN IMMEDIATE` takes the
 * write lock first, so the busy timeout applies and the transaction waits its turn.
 * Transactions declared `setAccessMode('read only')` still begin deferred, and never take the write lock.
 * Migrations run in such a transaction too (the adapter, below).
 * @see https://www.sqlite.org/lang_transaction.html
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #database: SQLite.Database

  constructor (database: SQLite.Database) {
    super({ database })
    this.#database = database
  }

  override createDriver (): Driver {
    return new ImmediateSqliteDriver(this.#database)
  }

  override createAdapter (): DialectAdapter {
    return new TransactionalDdlSqliteAdapter()
  }
}

/**
 * SQLite's DDL is transactional, though Kysely's adapter says otherwise; saying so makes Kysely's
 * migrator run the migrations in one (immediate) transaction. That is its only lock on SQLite: without
 * it, two processes starting together on a new data directory both create the tables, and one fails
 * ("table … already exists"). A failed migration then also leaves nothing half-done.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl (): boolean {
    return true
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  readonly #database: SQLite.Database

  constructor (database: SQLite.Database) {
    super({ database })
    this.#database = database
  }

  override async beginTransaction (connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(settings?.accessMode === 'read only' ? 'begin' : 'begin immediate'))
  }

  override async rollbackTransaction (connection: DatabaseConnection): Promise<void> {
    // SQLite ends a transaction itself on some errors (a full disk, a failed commit): rolling back
    // again would throw "no transaction is active" over the error that matters.
    if (this.#database.inTransaction) await super.rollbackTransaction(connection)
  }
}
