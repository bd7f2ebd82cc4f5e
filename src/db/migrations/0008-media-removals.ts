import { sql, type Kysely } from 'kysely'

/**
 * An asset's media files are removed once its deletion committed; `deleted_assets.media_removed_at`
 * records that they were, so a process that died in between leaves the work to the media worker's
 * sweep (docs/media.md, "Deletion"). Assets of types without uploaded media have nothing to remove.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deleted_assets').addColumn('media_removed_at', 'text').execute()
  await sql`UPDATE deleted_assets SET media_removed_at = deleted_at WHERE asset_type NOT IN ('video', 'audio', 'ad')`.execute(db)
  await db.schema.createIndex('deleted_assets_media_to_remove').on('deleted_assets').columns(['media_removed_at', 'deleted_at']).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('deleted_assets_media_to_remove').execute()
  await db.schema.alterTable('deleted_assets').dropColumn('media_removed_at').execute()
}
