import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely'
import { migrations } from './migrations/index.ts'

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest (db: Kysely<any>, options: { schema?: string } = {}): Promise<void> {
  const schema = options.schema ?? await currentSchema(db)
  const migrator = new Migrator({
    db,
    // With several schemas in one PostgreSQL database (one per deployment or test run, chosen by the
    // URL's search_path), the migration bookkeeping must be looked up in our own schema, not whichever
    // one information_schema lists first.
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: async () => migrations }
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}

/** On PostgreSQL, the schema unqualified names resolve to (the first of the search_path that exists). */
async function currentSchema (db: Kysely<any>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)
  return rows[0]?.schema ?? undefined
}
