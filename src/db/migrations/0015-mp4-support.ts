import type { Kysely } from 'kysely'

/**
 * `assets.mp4_support`: `none` (default) or `standard`, whose processing also makes an MP4 download of
 * the top rendition up to 1080p and an M4A of the audio, by remuxing (docs/media.md, "Downloads").
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assets').addColumn('mp4_support', 'text', (c) => c.notNull().defaultTo('none')).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assets').dropColumn('mp4_support').execute()
}
