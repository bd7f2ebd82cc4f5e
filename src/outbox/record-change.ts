import { randomBytes } from 'node:crypto'
import { sql, type Kysely, type RawBuilder } from 'kysely'
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
 * Records that a resource changed, in the caller's transaction: the index update is committed
 * with the write or not at all (docs/search-and-indexing.md, "The path of a change"). Changes to one
 * resource coalesce into one entry;
 * an entry already handed to RabbitMQ stays published, since the consumer reads the state current
 * when it gets the message.
 * @example await recordChange(trx, accountId, 'asset', embedCode)
 */
export async function recordChange (trx: Kysely<DB>, accountId: string, type: IndexedType, id: string): Promise<void> {
  await recordChanges(trx, accountId, type, [id])
}

/** `recordChange` for many resources of one type in one statement. */
export async function recordChanges (trx: Kysely<DB>, accountId: string, type: IndexedType, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return
  for (const id of ids) noteChange(trx, `${type}s`, id)
  const now = new Date().toISOString()
  const changeId = newChangeId()
  const rows = [...new Set(ids)].map((id) => ({ account_id: accountId, type, id, change_id: changeId, enqueued_at: now, changed_at: now }))
  await trx.insertInto('outbox').values(rows)
    .onConflict((oc) => oc.columns(['account_id', 'type', 'id']).doUpdateSet(refreshed))
    .execute()
}

/**
 * A label's name or place changed, or it is about to be deleted: the label, every label under it
 * (their full names follow) and every asset carrying one of them (assets index their labels' full
 * names) need indexing again. Set-based, so a label on 100k assets costs one statement. Call it
 * after a rename or move (with the new full name) and before a delete (the cascade removes the
 * asset links).
 */
export async function recordLabelTree (trx: Kysely<DB>, accountId: string, label: { id: string, full_name: string }): Promise<void> {
  const now = new Date().toISOString()
  const changeId = newChangeId()
  const prefix = `${label.full_name}/`
  const subtree = trx.selectFrom('labels').where('labels.account_id', '=', accountId)
    .where((eb) => eb.or([eb('labels.id', '=', label.id), eb(sql<string>`substr(labels.full_name, 1, ${[...prefix].length})`, '=', prefix)]))
  const columns = ['account_id', 'type', 'id', 'change_id', 'enqueued_at', 'changed_at'] as const
  await trx.insertInto('outbox').columns(columns)
    .expression(subtree.select([
      text(accountId).as('account_id'), text('label').as('type'), 'labels.id',
      text(changeId).as('change_id'), text(now).as('enqueued_at'), text(now).as('changed_at')
    ]))
    .onConflict((oc) => oc.columns(['account_id', 'type', 'id']).doUpdateSet(refreshed))
    .returning(['type', 'id'])
    .execute()
    .then((rows) => { noteRows(trx, rows) })
  await trx.insertInto('outbox').columns(columns)
    .expression(trx.selectFrom('asset_labels').distinct().select([
      text(accountId).as('account_id'), text('asset').as('type'), 'asset_labels.asset_id',
      text(changeId).as('change_id'), text(now).as('enqueued_at'), text(now).as('changed_at')
    ]).where('asset_labels.account_id', '=', accountId).where('asset_labels.label_id', 'in', subtree.select('labels.id')))
    .onConflict((oc) => oc.columns(['account_id', 'type', 'id']).doUpdateSet(refreshed))
    .returning(['type', 'id'])
    .execute()
    .then((rows) => { noteRows(trx, rows) })
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
