import { sql, type Kysely } from 'kysely'

/** Labels, players and publishing rules (docs/resources.md). Same DDL on SQLite and PostgreSQL. */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('labels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.references('labels.id'))
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  // Sibling names are unique, root labels included (NULL parents would not collide in a plain unique
  // index): the backstop that keeps concurrent creates race-safe.
  await sql`CREATE UNIQUE INDEX labels_sibling_name ON labels (account_id, (COALESCE(parent_id, '')), name)`.execute(db)
  await db.schema.createIndex('labels_account_order').on('labels').columns(['account_id', 'created_at', 'id']).execute()
  await db.schema.createIndex('labels_parent_order').on('labels').columns(['account_id', 'parent_id', 'created_at', 'id']).execute()
  await db.schema.createIndex('labels_full_name').on('labels').columns(['account_id', 'full_name']).execute()

  await db.schema.createTable('players')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('provider_homepage_url', 'text')
    .addColumn('provider_name', 'text', (c) => c.notNull())
    .addColumn('default_closed_caption_language', 'text', (c) => c.notNull())
    .addColumn('branding', 'text', (c) => c.notNull())
    .addColumn('watermark', 'text', (c) => c.notNull())
    .addColumn('playback', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('players_account_order').on('players').columns(['account_id', 'created_at', 'id']).execute()
  // At most one default player per account, whatever the writers do.
  await sql`CREATE UNIQUE INDEX players_one_default ON players (account_id) WHERE is_default = 1`.execute(db)

  await db.schema.createTable('publishing_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('allowed_devices', 'text', (c) => c.notNull())
    .addColumn('time_restrictions', 'text', (c) => c.notNull())
    .addColumn('domain_restrictions', 'text', (c) => c.notNull())
    .addColumn('geographic_restrictions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('publishing_rules_account_order').on('publishing_rules').columns(['account_id', 'created_at', 'id']).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('publishing_rules').execute()
  await db.schema.dropTable('players').execute()
  await db.schema.dropTable('labels').execute()
}
