import type { Kysely } from 'kysely'

/**
 * Assets (with metadata, labels, deleted assets) and syndications (with their labels and access keys).
 * Runs after 0002, whose `labels`, `players` and `publishing_rules` tables are referenced here: deleting a
 * label removes it from assets and syndications (cascade); deleting a player or publishing rule unsets it.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('asset_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('post_processing_status', 'text', (c) => c.notNull())
    .addColumn('duration', 'bigint', (c) => c.notNull())
    .addColumn('original_file_name', 'text')
    .addColumn('file_size', 'bigint')
    .addColumn('chunk_size', 'bigint')
    .addColumn('preview_image_url', 'text')
    .addColumn('player_id', 'text', (c) => c.references('players.id').onDelete('set null'))
    .addColumn('publishing_rule_id', 'text', (c) => c.references('publishing_rules.id').onDelete('set null'))
    .addColumn('time_restrictions', 'text')
    .addColumn('restriction_start', 'text')
    .addColumn('restriction_end', 'text')
    .addColumn('stream_urls', 'text')
    .addColumn('youtube_id', 'text')
    .addColumn('click_url', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  // NULLs never collide in a unique index (both databases), so assets without these ids are unaffected.
  await db.schema.createIndex('assets_external_id').on('assets').columns(['account_id', 'external_id']).unique().execute()
  await db.schema.createIndex('assets_youtube_id').on('assets').columns(['account_id', 'youtube_id']).unique().execute()
  // One index per `orderby` field, ending in the keyset tie-breaker.
  for (const column of ['created_at', 'updated_at', 'name', 'duration', 'asset_type']) {
    await db.schema.createIndex(`assets_by_${column}`).on('assets').columns(['account_id', column, 'id']).execute()
  }
  await db.schema.createIndex('assets_player_id').on('assets').column('player_id').execute()
  await db.schema.createIndex('assets_publishing_rule_id').on('assets').column('publishing_rule_id').execute()
  await db.schema.createIndex('assets_created_by').on('assets').column('created_by').execute()

  await db.schema.createTable('asset_metadata')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('asset_metadata_pk', ['asset_id', 'name'])
    .execute()
  await db.schema.createIndex('asset_metadata_by_value').on('asset_metadata').columns(['account_id', 'name', 'value']).execute()

  await db.schema.createTable('asset_labels')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addColumn('label_id', 'text', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('asset_labels_pk', ['asset_id', 'label_id'])
    .execute()
  await db.schema.createIndex('asset_labels_by_label').on('asset_labels').columns(['label_id', 'asset_id']).execute()

  await db.schema.createTable('deleted_assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('asset_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('created_by', 'text')
    .addColumn('deleted_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('deleted_assets_by_time').on('deleted_assets').columns(['account_id', 'deleted_at', 'id']).execute()

  await db.schema.createTable('syndications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('include_all_content', 'integer', (c) => c.notNull())
    .addColumn('asset_types', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('keywords', 'text')
    .addColumn('author', 'text')
    .addColumn('category', 'text')
    .addColumn('require_access_key', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('syndications_account_order').on('syndications').columns(['account_id', 'created_at', 'id']).execute()

  await db.schema.createTable('syndication_labels')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('syndication_id', 'text', (c) => c.notNull().references('syndications.id').onDelete('cascade'))
    .addColumn('label_id', 'text', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('syndication_labels_pk', ['syndication_id', 'label_id'])
    .execute()
  await db.schema.createIndex('syndication_labels_by_label').on('syndication_labels').column('label_id').execute()

  await db.schema.createTable('syndication_access_keys')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('syndication_id', 'text', (c) => c.notNull().references('syndications.id').onDelete('cascade'))
    .addColumn('access_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('syndication_access_keys_pk', ['syndication_id', 'access_key'])
    .execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  for (const table of ['syndication_access_keys', 'syndication_labels', 'syndications', 'deleted_assets', 'asset_labels', 'asset_metadata', 'assets']) {
    await db.schema.dropTable(table).execute()
  }
}
