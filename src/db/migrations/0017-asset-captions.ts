import type { Kysely } from 'kysely'

/**
 * An asset's caption tracks, one per language (docs/captions.md): the body as uploaded and its WebVTT
 * rendering. A track goes with its asset (cascade). Media jobs gain the language of a generated track; assets, the languages to transcribe once uploaded.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('asset_captions')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('auto_generated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('engine', 'text')
    .addColumn('original', 'text', (c) => c.notNull())
    .addColumn('webvtt', 'text', (c) => c.notNull())
    .addColumn('cue_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('asset_captions_pk', ['asset_id', 'language'])
    .execute()
  // A `captions` job's language (null for the jobs that make media versions).
  await db.schema.alterTable('media_jobs').addColumn('language', 'text').execute()
  // The languages to transcribe once the asset's upload completes (a JSON array), or null.
  await db.schema.alterTable('assets').addColumn('generate_captions', 'text').execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assets').dropColumn('generate_captions').execute()
  await db.schema.alterTable('media_jobs').dropColumn('language').execute()
  await db.schema.dropTable('asset_captions').execute()
}
