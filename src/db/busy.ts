/**
 * Whether `error` is the database turning a statement away because other writers hold it, rather than
 * anything wrong with the statement: a condition to wait out and retry, never to blame on the request or
 * the job. SQLite: SQLITE_BUSY and SQLITE_LOCKED with their extended codes, once the busy timeout has
 * passed. PostgreSQL: a lock not available (55P03), a deadlock (40P01) or a serialization failure (40001),
 * where the transaction lost to another.
 */
export function isDatabaseBusy (error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string') return false
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || POSTGRES_BUSY.has(code)
}

const POSTGRES_BUSY = new Set(['55P03', '40P01', '40001'])
