import type { Kysely } from 'kysely'

/**
 * A channel asset's line-up: the assets it plays, in order (docs/resources.md, "Channel line-ups"). A
 * row goes with its channel and with the asset it names (cascade), so a deleted asset leaves every
 * line-up it was in.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('channel_lineups')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('channel_lineups_pk', ['channel_id', 'position'])
    .execute()
  await db.schema.createIndex('channel_lineups_by_asset').on('channel_lineups').columns(['asset_id']).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('channel_lineups').execute()
}
