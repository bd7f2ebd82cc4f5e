import { sql, type Kysely } from 'kysely'

/**
 * A media version's processing progress on its own row (docs/media.md, "State"): a progress tick is one
 * small write there, without the account's lock, and moves neither the asset's `updated_at` nor its
 * search document. The asset's `processing_progress` column keeps what its state changes set (0 when a
 * job begins, 0 or 100 when one fails); answers show the version's progress while it has one.
 * The versions being made or served take the progress their asset showed; a served version with a newer
 * one being made is complete.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('media_versions').addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await sql`
    UPDATE media_versions SET progress = CASE
      WHEN state = 'current' AND EXISTS (SELECT 1 FROM media_versions newer WHERE newer.asset_id = media_versions.asset_id
        AND newer.account_id = media_versions.account_id AND newer.state = 'processing' AND newer.created_at > media_versions.created_at) THEN 100
      ELSE (SELECT assets.processing_progress FROM assets WHERE assets.id = media_versions.asset_id AND assets.account_id = media_versions.account_id)
    END
    WHERE state IN ('processing', 'current')`.execute(db)
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('media_versions').dropColumn('progress').execute()
}
