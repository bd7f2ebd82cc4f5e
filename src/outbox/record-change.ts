import { randomBytes } from 'node:crypto'
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import { noteChange } from '../db/index.ts'
import type { DB } from '../db/tables/index.ts'
import type { IndexedType } from './outbox-entry.ts'

const PROCESS_TOKEN = randomBytes(6).toString('hex')
let changeCounter = 0

/** A token no other change of any process carries, so an ack can tell whether a row changed. */
export function newChangeId (): string {
  changeCounter += 1
  return `${PROCESS_TOKEN}${changeCounter.toString(36)}`
}

/**
 * Records that a resource's document must be indexed again, in the caller's transaction: the index
 * update is committed with the write or not at all (docs/search-and-indexing.md). Changes to one resource
 * coalesce into one entry; an entry already handed to RabbitMQ stays published, since the consumer reads
 * the state current when it gets the message. Writes never call this: their entries are derived from
 * what they change (src/outbox/derive-entries.ts); the reindex, which changes nothing, queues through it.
 * @example await recordChange(trx, accountId, 'asset', embedCode)
 */
export async function recordChange (trx: Kysely<DB>, accountId: string, type: IndexedType, id: string): Promise<void> {
  await recordChanges(trx, accountId, type, [id])
}

/** Rows of one insert: a statement stays well under the engines' limits on bound parameters. */
const ROWS_PER_STATEMENT = 1000

/** `recordChange` for many resources of one type, a thousand to a statement. */
export async function recordChanges (trx: Kysely<DB>, accountId: string, type: IndexedType, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return
  const unique = ids.length === 1 ? ids : [...new Set(ids)]
  for (const id of unique) noteChange(trx, `${type}s`, id)
  const now = new Date().toISOString()
  const changeId = newChangeId()
  for (let i = 0; i < unique.length; i += ROWS_PER_STATEMENT) {
    const rows = unique.slice(i, i + ROWS_PER_STATEMENT).map((id) => ({ account_id: accountId, type, id, change_id: changeId, enqueued_at: now, changed_at: now }))
    await trx.insertInto('outbox').values(rows)
      .onConflict((oc) => oc.columns(['account_id', 'type', 'id']).doUpdateSet(refreshed))
      .execute()
  }
}

/**
 * `recordChanges` for the resources a query selects (as `id`), in one statement whatever their number:
 * the assets carrying a renamed label may be 100k.
 */
export async function recordSelected (trx: Kysely<DB>, accountId: string, type: IndexedType, ids: SelectQueryBuilder<DB, any, { id: string }>): Promise<void> {
  const now = new Date().toISOString()
  const changeId = newChangeId()
  const rows = await trx.insertInto('outbox').columns(['account_id', 'type', 'id', 'change_id', 'enqueued_at', 'changed_at'])
    .expression(trx.selectFrom(ids.as('touched')).distinct().select([
      text(accountId).as('account_id'), text(type).as('type'), 'touched.id',
      text(changeId).as('change_id'), text(now).as('enqueued_at'), text(now).as('changed_at')
    // SQLite reads `ON CONFLICT` after a SELECT without WHERE as part of a join: the WHERE ends the SELECT.
    ]).where(sql<boolean>`1 = 1`))
    .onConflict((oc) => oc.columns(['account_id', 'type', 'id']).doUpdateSet(refreshed))
    .returning(['type', 'id'])
    .execute()
  noteRows(trx, rows)
}

/**
 * A label's name or place changed, or it is about to be deleted: the label, every label under it
 * (their full names follow) and every asset carrying one of them. Writes derive these entries from what
 * they change (src/resources/assets/assets-document.ts); this is the same, for a label named by hand.
 */
export async function recordLabelTree (trx: Kysely<DB>, accountId: string, label: { id: string, full_name: string }): Promise<void> {
  const prefix = `${label.full_name}/`
  const subtree = trx.selectFrom('labels').where('labels.account_id', '=', accountId)
    .where((eb) => eb.or([eb('labels.id', '=', label.id), eb(sql<string>`substr(labels.full_name, 1, ${[...prefix].length})`, '=', prefix)]))
  await recordSelected(trx, accountId, 'label', subtree.select('labels.id as id'))
  await recordSelected(trx, accountId, 'asset', trx.selectFrom('asset_labels').select('asset_labels.asset_id as id')
    .where('asset_labels.account_id', '=', accountId).where('asset_labels.label_id', 'in', subtree.select('labels.id')))
}

/** The caches forget the labels and assets the tree's outbox entries name (src/db/changes.ts). */
function noteRows (trx: Kysely<DB>, rows: ReadonlyArray<{ type: string, id: string }>): void {
  for (const row of rows) noteChange(trx, `${row.type}s`, row.id)
}

/** A bound value as text: PostgreSQL cannot type a bare parameter in a SELECT DISTINCT list. */
function text (value: string): RawBuilder<string> {
  return sql<string>`CAST(${value} AS text)`
}

/** On conflict: a new change token and time; the rest (publication, lease, backoff) stays. */
function refreshed (eb: any): Record<string, unknown> {
  return { change_id: eb.ref('excluded.change_id'), changed_at: eb.ref('excluded.changed_at') }
}
