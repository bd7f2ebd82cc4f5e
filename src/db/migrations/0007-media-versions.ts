import type { Kysely } from 'kysely'

/**
 * Processed media (src/db/tables/media-versions.ts). `media_versions` holds one row per processed
 * version of an asset's media: the probe, the state of each rendition and where the original is. The
 * asset keeps the version it serves and a stable token its public media URLs are built on, so a
 * replacement switches the media without changing the URLs. Same DDL on SQLite and PostgreSQL.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('media_versions')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('original_key', 'text', (c) => c.notNull())
    .addColumn('probe', 'text')
    .addColumn('has_preview', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('renditions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_versions_pk', ['asset_id', 'version'])
    .execute()
  await db.schema.createIndex('media_versions_by_asset').on('media_versions').columns(['account_id', 'asset_id', 'created_at']).execute()

  await db.schema.alterTable('assets').addColumn('media_token', 'text').execute()
  await db.schema.alterTable('assets').addColumn('media_version', 'text').execute()
  await db.schema.alterTable('assets').addColumn('processing_progress', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('assets').addColumn('processing_error', 'text').execute()
  // The public media routes find an asset by its token alone: the token is the credential.
  await db.schema.createIndex('assets_media_token').on('assets').column('media_token').unique().execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('assets_media_token').execute()
  for (const column of ['processing_error', 'processing_progress', 'media_version', 'media_token']) {
    await db.schema.alterTable('assets').dropColumn(column).execute()
  }
  await db.schema.dropTable('media_versions').execute()
}
