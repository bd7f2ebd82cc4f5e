import type { Kysely } from 'kysely'

/**
 * `assets.processing_warnings`: what processing noticed without failing, as a JSON array of sentences
 * for the person who uploaded the file (a file that ends before its header says: docs/media.md,
 * "Duration"); null when there is nothing to say.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assets').addColumn('processing_warnings', 'text').execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assets').dropColumn('processing_warnings').execute()
}
