import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { migrateToLatest, openDatabase, type Database } from '../../src/db/index.ts'

export interface Backend {
  name: 'sqlite' | 'postgres'
  /** Set when this backend cannot run here: the reason is shown as the skip message. */
  skip: string | false
}

/** SQLite always; PostgreSQL when TEST_DATABASE_URL is set (CI sets it, so there it must pass). */
export function databaseBackends (): Backend[] {
  return [
    { name: 'sqlite', skip: false },
    { name: 'postgres', skip: process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set' }
  ]
}

export interface TestDatabase extends Database {
  url: string
  schema: string | undefined
}

/**
 * A fresh, migrated database: an in-memory SQLite database, or a new PostgreSQL schema that is
 * dropped again by `close()`.
 */
export async function openTestDatabase (backend: Backend['name']): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const database = await openDatabase('sqlite::memory:')
    await migrateToLatest(database.db)
    return { ...database, url: 'sqlite::memory:', schema: undefined }
  }
  const url = process.env.TEST_DATABASE_URL
  if (url === undefined) throw new Error('TEST_DATABASE_URL is not set')
  const schema = `t_${randomBytes(6).toString('hex')}`
  const database = await openDatabase(url, { schema, poolSize: 5 })
  await migrateInOwnSchema(database, schema)
  return {
    ...database,
    url,
    schema,
    close: async () => {
      await database.close()
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try { await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) } finally { await client.end() }
    }
  }
}

/**
 * Kysely's migrator lists the tables of every schema (its introspector calls pg_get_serial_sequence on
 * each), so a schema or table that another test process drops at that moment fails it: 3F000 "schema …
 * does not exist", 42P01 "relation … does not exist", XX000 "could not open relation with OID …". That
 * is a race between test runs sharing one database, not a migration error: try again.
 */
const DROPPED_MEANWHILE = new Set(['3F000', '42P01', 'XX000'])

async function migrateInOwnSchema (database: Database, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await migrateToLatest(database.db, { schema })
      return
    } catch (error) {
      const code = ((error as Error).cause as { code?: string } | undefined)?.code
      if (code === undefined || !DROPPED_MEANWHILE.has(code) || attempt === 5) throw error
    }
  }
}
