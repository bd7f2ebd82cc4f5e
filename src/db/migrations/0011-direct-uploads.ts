import type { Kysely } from 'kysely'

/**
 * Direct uploads over tus (src/db/tables/direct-uploads.ts, docs/uploads.md "Direct uploads"): the
 * one-time upload URLs, the parts each tus PATCH stored, and the per-upload locks every api process
 * shares. Same DDL on SQLite and PostgreSQL.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('direct_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('cors_origin', 'text')
    .addColumn('timeout', 'integer', (c) => c.notNull())
    .addColumn('new_asset_settings', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('upload_id', 'text')
    .addColumn('upload_length', 'bigint')
    .addColumn('upload_offset', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('part_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('upload_metadata', 'text')
    .addColumn('asset_id', 'text')
    .addColumn('error', 'text')
    .addColumn('warnings', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('direct_uploads_by_account').on('direct_uploads').columns(['account_id', 'created_at', 'id']).execute()
  await db.schema.createIndex('direct_uploads_by_creator').on('direct_uploads').columns(['account_id', 'created_by', 'status']).execute()

  await db.schema.createTable('direct_upload_parts')
    .addColumn('direct_upload_id', 'text', (c) => c.notNull().references('direct_uploads.id').onDelete('cascade'))
    .addColumn('part_index', 'integer', (c) => c.notNull())
    .addColumn('part_offset', 'bigint', (c) => c.notNull())
    .addColumn('part_length', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('direct_upload_parts_pk', ['direct_upload_id', 'part_index'])
    .execute()

  await db.schema.createTable('tus_locks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  for (const table of ['tus_locks', 'direct_upload_parts', 'direct_uploads']) {
    await db.schema.dropTable(table).execute()
  }
}
