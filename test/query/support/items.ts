import type { Kysely } from 'kysely'
import type { CompareOp, FieldMap, WhereHooks } from '../../../src/query/index.ts'

/** A scratch table shaped like assets, with labels and metadata beside it, for running compiled filters. */
// A type alias, not an interface: Kysely's withTables() needs the implicit index signature.
export type ItemTables = {
  query_items: {
    id: string
    name: string
    name_lc: string
    description: string | null
    duration: number
    asset_type: string
    status: string
    external_id: string | null
    created_at: string
    start_date: string | null
  }
  query_item_labels: { item_id: string, label: string }
  query_item_metadata: { item_id: string, key: string, value: string }
}

export const FIELDS: FieldMap = {
  embed_code: { column: 'query_items.id', type: 'text' },
  name: { column: 'name', type: 'word' },
  title: { column: 'name_lc', type: 'word', lowercased: true },
  description: { column: 'description', type: 'word' },
  duration: { column: 'duration', type: 'number' },
  asset_type: { column: 'asset_type', type: 'enum', values: ['video', 'audio', 'ad', 'remote_asset', 'youtube', 'live_stream', 'channel'] },
  status: { column: 'status', type: 'enum', values: ['uploading', 'processing', 'live', 'paused', 'error'] },
  external_id: { column: 'external_id', type: 'text' },
  created_at: { column: 'created_at', type: 'date' },
  'time_restrictions.start_date': { column: 'start_date', type: 'date', nullMatches: true }
}

/** What the assets resource will supply: label names and metadata entries in their own tables. */
export const HOOKS: WhereHooks = {
  labelsIncludes: (eb, name) => eb.exists(
    eb.selectFrom('query_item_labels').select('item_id')
      .whereRef('query_item_labels.item_id', '=', 'query_items.id')
      .where('label', '=', name)
  ),
  metadata: (eb, key, op, value) => {
    const entry = (compare: Exclude<CompareOp, '!='>): ReturnType<typeof eb.exists> => eb.exists(
      eb.selectFrom('query_item_metadata').select('item_id')
        .whereRef('query_item_metadata.item_id', '=', 'query_items.id')
        .where('key', '=', key)
        .where('value', compare, value)
    )
    // "not equal" means no entry with that value, so items without the key match too.
    return op === '!=' ? eb.not(entry('=')) : entry(op)
  }
}

type Item = ItemTables['query_items'] & { labels: string[], metadata: Record<string, string> }

const ROWS: Array<Omit<Item, 'name_lc'>> = [
  { id: 'a', name: 'Piano cat', description: 'Funny video of a cat', duration: 1000, asset_type: 'video', status: 'live', external_id: 'ext-1', created_at: '2013-01-04T00:20:36.123Z', start_date: null, labels: ['Sports', 'Music'], metadata: { rating: 'R', year: '2004' } },
  { id: 'b', name: 'Cat Videos Compilation', description: null, duration: 600000, asset_type: 'video', status: 'paused', external_id: 'ext-2', created_at: '2013-01-04T00:20:37.000Z', start_date: '2011-05-01T00:00:00.000Z', labels: ['Music'], metadata: { rating: 'PG' } },
  { id: 'c', name: 'Dog training', description: 'Good dog', duration: 600, asset_type: 'audio', status: 'live', external_id: null, created_at: '2015-07-07T09:30:00.000Z', start_date: '2011-07-01T00:00:00.000Z', labels: [], metadata: {} },
  { id: 'd', name: 'It\'s a Ringer', description: 'The The', duration: 601, asset_type: 'remote_asset', status: 'error', external_id: 'ext-3', created_at: '2026-11-22T10:00:00.000Z', start_date: null, labels: ['Hip Hop'], metadata: { 'odd(key)': 'x' } },
  { id: 'e', name: 'CAFÉ SOCIETY', description: 'Un film de Woody Allen', duration: 5400000, asset_type: 'video', status: 'live', external_id: 'ext-10', created_at: '2026-11-22T10:00:00.500Z', start_date: '2011-06-01T00:00:00.000Z', labels: [], metadata: {} }
]
const ITEMS: Item[] = ROWS.map((item) => ({ ...item, name_lc: item.name.toLowerCase() }))

export const ALL_IDS = ITEMS.map((item) => item.id)

/** Creates and fills the scratch tables in a fresh (migrated) test database. */
export async function createItems (db: Kysely<ItemTables>): Promise<void> {
  await db.schema.createTable('query_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lc', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('asset_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text')
    .execute()
  await db.schema.createTable('query_item_labels')
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createTable('query_item_metadata')
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()
  await db.insertInto('query_items').values(ITEMS.map(({ labels, metadata, ...row }) => row)).execute()
  await db.insertInto('query_item_labels').values(ITEMS.flatMap((item) => item.labels.map((label) => ({ item_id: item.id, label })))).execute()
  await db.insertInto('query_item_metadata')
    .values(ITEMS.flatMap((item) => Object.entries(item.metadata).map(([key, value]) => ({ item_id: item.id, key, value }))))
    .execute()
}
