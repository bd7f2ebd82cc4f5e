import type { Kysely } from 'kysely'

/**
 * The index outbox and the parked (poison) entries (docs/search-and-indexing.md, "The path of a
 * change"). Same DDL on SQLite and PostgreSQL.
 * One outbox row per resource: its primary key is what makes the queue deduped.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('outbox')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('change_id', 'text', (c) => c.notNull())
    .addColumn('enqueued_at', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .addColumn('available_at', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', 'text')
    .addPrimaryKeyConstraint('outbox_pk', ['account_id', 'type', 'id'])
    .execute()
  // Embedded consumers claim the oldest entries first; the RabbitMQ relay looks for unpublished ones.
  await db.schema.createIndex('outbox_by_enqueued').on('outbox').columns(['enqueued_at']).execute()
  await db.schema.createIndex('outbox_by_published').on('outbox').columns(['published', 'enqueued_at']).execute()
  // An ack releases what its batch still holds by lease owner.
  await db.schema.createIndex('outbox_by_lease_owner').on('outbox').columns(['lease_owner']).execute()

  await db.schema.createTable('index_parked')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('parked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('index_parked_pk', ['account_id', 'type', 'id'])
    .execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('index_parked').execute()
  await db.schema.dropTable('outbox').execute()
}
