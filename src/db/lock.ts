import { sql, type Kysely } from 'kysely'
import type { Dialect } from './index.ts'
import type { DB } from './schema.ts'

/**
 * Serialises writers of one account inside a transaction (invariants such as "keep one administrator"
 * or "one default player"). PostgreSQL locks the account row; SQLite needs nothing because it already
 * runs one write transaction at a time. A dialect branch, named as such.
 */
export async function lockAccount (trx: Kysely<DB>, dialect: Dialect, accountId: string): Promise<void> {
  if (dialect === 'postgres') await sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`.execute(trx)
}
