import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect } from 'kysely'
import type { DB } from './tables/index.ts'
import { registerSqliteHandle } from './sqlite-handle.ts'
import { ImmediateSqliteDialect } from './sqlite-dialect.ts'
import type { WriteEffects, WriteObserver } from './changes.ts'

export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  db: Kysely<DB>
  dialect: Dialect
  close: () => Promise<void>
  /** PostgreSQL: the URL it was opened with (the invalidation bus listens there by default). */
  url?: string
  /** Told about every committed write (the invalidation bus, src/bus); set by the process that owns the caches. */
  writes?: WriteObserver
  /** What commits with every write, derived from its change records (the outbox entries); set by the composition root. */
  effects?: WriteEffects
}

export interface DatabaseOptions {
  /** PostgreSQL only: the schema to use (created if missing); tests get a fresh one per run. */
  schema?: string
  /** PostgreSQL pool size. */
  poolSize?: number
  /** SQLite only: the page cache in KiB (SQLITE_CACHE_KB); SQLite's own default is 2,000. */
  sqliteCacheKb?: number
  /** SQLite only: how many prepared statements are kept for reuse (SQLITE_STATEMENT_CACHE). */
  sqliteStatements?: number
}

/** Opens the database named by a `sqlite:<file>` or `postgres://` URL. */
export async function openDatabase (url: string, options: DatabaseOptions = {}): Promise<Database> {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options.sqliteCacheKb, options.sqliteStatements)
  return await openPostgres(url, options)
}

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
const SQLITE_BUSY_TIMEOUT_MS = 5000

function openSqlite (file: string, cacheKb = 2048, statements = 1000): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  // A writer waits up to the busy timeout for another process's write to end (write transactions begin
  // IMMEDIATE, src/db/sqlite-dialect.ts, so the wait applies to them too); past it a request answers 503.
  const sqlite = new SQLite(file, { timeout: SQLITE_BUSY_TIMEOUT_MS })
  // WAL lets the indexer and other processes read while the API writes; NORMAL sync is durable in WAL mode
  // against process crashes (an OS crash may lose the last transactions, never corrupt).
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  // Negative: KiB rather than pages. A bound on what the file's pages may hold in this process.
  sqlite.pragma(`cache_size = -${Math.floor(cacheKb)}`)
  cacheStatements(sqlite, statements)
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect(sqlite) })
  registerSqliteHandle(db, sqlite)
  return { db, dialect: 'sqlite', close: async () => { await db.destroy() } }
}

const statementCaches = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>()

/** How many prepared statements the connection keeps for reuse (SQLITE_STATEMENT_CACHE bounds it), for metrics. */
export function cachedStatementCount (sqlite: SQLite.Database): number {
  return statementCaches.get(sqlite)?.size ?? 0
}

/**
 * Kysely's SQLite driver prepares every query anew, and preparing costs more than running a small
 * indexed query. Statements are reusable, so keep the prepared ones by SQL text (bounded); a statement
 * that is busy (being iterated by a stream) is never handed out twice. Each holds a few KiB of native
 * memory (about 9 KiB for a list with a join; docs/deployment.md, "Memory").
 */
function cacheStatements (sqlite: SQLite.Database, max: number): void {
  const prepare = sqlite.prepare.bind(sqlite)
  const cache = new Map<string, SQLite.Statement>()
  statementCaches.set(sqlite, cache)
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source)
    if (cached !== undefined && !cached.busy) return cached
    const statement = prepare(source)
    if (cached === undefined) {
      if (cache.size >= max) cache.delete(cache.keys().next().value as string)
      cache.set(source, statement)
    }
    return statement
  }) as typeof sqlite.prepare
}

async function openPostgres (url: string, options: DatabaseOptions): Promise<Database> {
  // Imported here: the embedded (SQLite) deployment never loads the PostgreSQL client.
  const { default: pg } = await import('pg')
  const schema = options.schema
  if (schema !== undefined) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`)
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    } finally {
      await admin.end()
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {})
  })
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
  return { db, dialect: 'postgres', url, close: async () => { await db.destroy() } }
}
