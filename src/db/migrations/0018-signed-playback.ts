import type { Kysely } from 'kysely'

/**
 * Signed playback (docs/playback.md): an account's playback keys (only the public key of a key the
 * customer holds; the sealed private key of the one the service holds, `managed`), and `playback_policy`
 * on publishing rules (`public` by default) and on assets (null: the rule's).
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('playback_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('managed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('private_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute()
  await db.schema.createIndex('playback_keys_account').on('playback_keys').columns(['account_id', 'created_at', 'id']).execute()
  await db.schema.alterTable('publishing_rules').addColumn('playback_policy', 'text', (c) => c.notNull().defaultTo('public')).execute()
  await db.schema.alterTable('assets').addColumn('playback_policy', 'text').execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assets').dropColumn('playback_policy').execute()
  await db.schema.alterTable('publishing_rules').dropColumn('playback_policy').execute()
  await db.schema.dropTable('playback_keys').execute()
}
