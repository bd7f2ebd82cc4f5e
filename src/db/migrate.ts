import { Migrator, type Kysely } from 'kysely'
import { migrations } from './migrations/index.ts'

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest (db: Kysely<any>, options: { schema?: string } = {}): Promise<void> {
  const migrator = new Migrator({
    db,
    // With several schemas in one PostgreSQL database (one per test run), the migration bookkeeping must
    // be looked up in our own schema, not whichever one information_schema lists first.
    ...(options.schema !== undefined ? { migrationTableSchema: options.schema } : {}),
    provider: { getMigrations: async () => migrations }
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}
