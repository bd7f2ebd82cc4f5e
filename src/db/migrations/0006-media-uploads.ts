import type { Kysely } from 'kysely'

/**
 * Uploads and the media job queue (src/db/tables/media.ts), plus the asset fields real clients send
 * (docs/uploads.md). Same DDL on SQLite and PostgreSQL.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('media_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('chunk_size', 'bigint', (c) => c.notNull())
    .addColumn('chunk_count', 'integer', (c) => c.notNull())
    .addColumn('original_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  // The open upload of an asset (or of its replacement) is found by these.
  await db.schema.createIndex('media_uploads_by_asset').on('media_uploads').columns(['account_id', 'asset_id', 'kind', 'state']).execute()

  await db.schema.createTable('media_upload_chunks')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('upload_id', 'text', (c) => c.notNull().references('media_uploads.id').onDelete('cascade'))
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_upload_chunks_pk', ['upload_id', 'chunk_index'])
    .execute()

  await db.schema.createTable('media_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('original_key', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  // Workers claim pending jobs and jobs whose lease ran out by this index.
  await db.schema.createIndex('media_jobs_by_state').on('media_jobs').columns(['state', 'lease_until']).execute()
  await db.schema.createIndex('media_jobs_by_asset').on('media_jobs').columns(['account_id', 'asset_id']).execute()

  // Asset fields real clients send (docs/resources.md, Assets); JSON in text columns, booleans 0/1.
  for (const column of ['hosted_at', 'closed_captions_url', 'vr360type', 'tracking_pixel_urls', 'source_probe']) {
    await db.schema.alterTable('assets').addColumn(column, 'text').execute()
  }
  for (const column of ['disable_seek_for_standalone', 'is_live_stream']) {
    await db.schema.alterTable('assets').addColumn(column, 'integer').execute()
  }
}

export async function down (db: Kysely<any>): Promise<void> {
  for (const column of ['hosted_at', 'closed_captions_url', 'vr360type', 'tracking_pixel_urls', 'source_probe', 'disable_seek_for_standalone', 'is_live_stream']) {
    await db.schema.alterTable('assets').dropColumn(column).execute()
  }
  for (const table of ['media_jobs', 'media_upload_chunks', 'media_uploads']) {
    await db.schema.dropTable(table).execute()
  }
}
