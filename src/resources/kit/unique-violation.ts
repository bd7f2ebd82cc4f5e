/**
 * Whether a database error is a unique-index violation (PostgreSQL 23505, SQLite's constraint code).
 * Writers check uniqueness under the account lock first; the index is the backstop when writers race anyway.
 */
export function isUniqueViolation (error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE'
}

/** Runs a write and turns a unique-index violation into the resource's own error. */
export async function uniqueOr (write: Promise<void>, taken: () => Error): Promise<void> {
  try {
    await write
  } catch (error) {
    if (isUniqueViolation(error)) throw taken()
    throw error
  }
}
