import type { Kysely } from 'kysely'

/**
 * AES-128 HLS (docs/playback.md, "Encryption"): `assets.encryption` (`none` by default, or `aes-128`,
 * applied when the media is processed) and `media_versions.encryption_keys`, the version's content keys
 * sealed with the master key (null for a clear version).
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assets').addColumn('encryption', 'text', (c) => c.notNull().defaultTo('none')).execute()
  await db.schema.alterTable('media_versions').addColumn('encryption_keys', 'text').execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('media_versions').dropColumn('encryption_keys').execute()
  await db.schema.alterTable('assets').dropColumn('encryption').execute()
}
