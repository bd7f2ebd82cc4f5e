import { Migrator, type Kysely, type Migration } from 'kysely'
import { migrations } from './migrations/index.ts'

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest (db: Kysely<any>, extra: Record<string, Migration> = {}): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...migrations, ...extra }) }
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}
