import type { Kysely, SelectQueryBuilder } from 'kysely'
import type { ChangeRecord, WriteEffects } from '../db/index.ts'
import type { DB } from '../db/tables/index.ts'
import type { IndexedType } from './outbox-entry.ts'
import { recordChanges, recordSelected } from './record-change.ts'

/** Documents found by a query from the records of another table: a renamed label's assets. */
export interface TouchedThrough {
  /** The table whose records lead to the documents. */
  table: string
  /** Which of its records do (a label update that set `full_name`, not one that only moved `updated_at`). */
  when: (record: ChangeRecord) => boolean
  /** The touched documents' ids, selected as `id`, from the ids of those records. Run once per write, set-based. */
  ids: (trx: Kysely<DB>, accountId: string, ids: readonly string[]) => SelectQueryBuilder<DB, any, { id: string }>
}

/**
 * Which changes touch the documents of one indexed type. Each resource declares it beside its document
 * loader (`<name>-document.ts`); the composition root hands the set to `deriveOutboxEntries`.
 */
export interface DocumentTouches {
  type: IndexedType
  /** Tables whose records name one of these documents by their id: its own table and its part tables. */
  rows: readonly string[]
  /** Tables whose deletes (only) name one of these documents by their id: an asset's transcripts go with the asset. */
  deletes?: readonly string[]
  through?: readonly TouchedThrough[]
}

/** Past this many ids, a `through` query's `IN` list is cut in pieces (bound parameters are limited). */
const IDS_PER_QUERY = 500

/**
 * The write effect that records, in the writing transaction, the outbox entry of every document the
 * write's change records touch (docs/search-and-indexing.md). Plain rows cost one statement per document
 * type; a `through` query runs only when one of its records is there.
 * @example database.effects = deriveOutboxEntries([{ type: 'player', rows: ['players'] }])
 */
export function deriveOutboxEntries (touches: readonly DocumentTouches[]): WriteEffects {
  const direct = new Map<string, IndexedType[]>()
  const deleted = new Map<string, IndexedType[]>()
  const through = new Map<string, Array<{ type: IndexedType, path: TouchedThrough }>>()
  for (const { type, rows, deletes = [], through: paths = [] } of touches) {
    for (const table of rows) direct.set(table, [...direct.get(table) ?? [], type])
    for (const table of deletes) deleted.set(table, [...deleted.get(table) ?? [], type])
    for (const path of paths) through.set(path.table, [...through.get(path.table) ?? [], { type, path }])
  }
  return async (trx, accountId, records) => {
    const documents = new Map<IndexedType, string[]>()
    let followed: Map<{ type: IndexedType, path: TouchedThrough }, string[]> | undefined
    for (const record of records) {
      const types = record.operation === 'delete' ? [...direct.get(record.table) ?? [], ...deleted.get(record.table) ?? []] : direct.get(record.table) ?? []
      for (const type of types) {
        const ids = documents.get(type)
        if (ids === undefined) documents.set(type, [record.id])
        else ids.push(record.id)
      }
      for (const route of through.get(record.table) ?? []) {
        if (!route.path.when(record)) continue
        followed ??= new Map()
        followed.set(route, [...followed.get(route) ?? [], record.id])
      }
    }
    for (const [type, ids] of documents) await recordChanges(trx, accountId, type, ids)
    if (followed === undefined) return
    for (const [{ type, path }, ids] of followed) {
      for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
        await recordSelected(trx, accountId, type, path.ids(trx, accountId, ids.slice(i, i + IDS_PER_QUERY)))
      }
    }
  }
}
