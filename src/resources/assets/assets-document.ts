import type { Kysely } from 'kysely'
import type { DB } from '../../db/tables/index.ts'
import type { SearchDocument } from '../../search/index.ts'
import { inList } from '../../lib/in-list.ts'
import type { DocumentTouches } from '../../outbox/index.ts'

/**
 * An asset's search document: name, description, its labels' full names, metadata, status, type,
 * duration (ms) and dates (docs/search-and-indexing.md). Null when the asset no longer exists.
 */
export async function loadAssetDocument (db: Kysely<DB>, accountId: string, id: string): Promise<SearchDocument | null> {
  return (await loadAssetDocuments(db, accountId, [id])).get(id) ?? null
}

/** The documents of many assets of one account in three queries (a reindex loads them by the hundred). */
export async function loadAssetDocuments (db: Kysely<DB>, accountId: string, ids: readonly string[]): Promise<Map<string, SearchDocument>> {
  const docs = new Map<string, SearchDocument>()
  if (ids.length === 0) return docs
  const list = inList(ids)
  const rows = await db.selectFrom('assets')
    .select(['id', 'name', 'description', 'status', 'asset_type', 'duration', 'created_at', 'updated_at'])
    .where('account_id', '=', accountId).where('id', 'in', list).execute()
  if (rows.length === 0) return docs
  const labels = await db.selectFrom('asset_labels').innerJoin('labels', 'labels.id', 'asset_labels.label_id')
    .select(['asset_labels.asset_id', 'labels.full_name']).where('asset_labels.account_id', '=', accountId).where('asset_labels.asset_id', 'in', list)
    .execute()
  const metadata = await db.selectFrom('asset_metadata').select(['asset_id', 'name', 'value'])
    .where('account_id', '=', accountId).where('asset_id', 'in', list).execute()
  for (const row of rows) {
    docs.set(row.id, {
      type: 'asset',
      id: row.id,
      fields: {
        name: row.name,
        description: row.description,
        labels: [] as string[],
        metadata: {} as Record<string, string>,
        status: row.status,
        asset_type: row.asset_type,
        duration: Number(row.duration),
        created_at: row.created_at,
        updated_at: row.updated_at
      }
    })
  }
  for (const label of labels) (docs.get(label.asset_id)?.fields.labels as string[] | undefined)?.push(label.full_name)
  for (const entry of metadata) {
    const fields = docs.get(entry.asset_id)?.fields
    if (fields !== undefined) (fields.metadata as Record<string, string>)[entry.name] = entry.value
  }
  // The same order on both engines (PostgreSQL sorts text by its locale): by code unit.
  for (const doc of docs.values()) {
    (doc.fields.labels as string[]).sort()
    doc.fields.metadata = Object.fromEntries(Object.entries(doc.fields.metadata as Record<string, string>).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
  }
  return docs
}

/**
 * The changes that touch an asset's document: its row, its labels and metadata, and a label whose full
 * name changed (a rename or move of it or of a label above it): the assets carrying it. A deleted label's
 * links are deleted as rows of `asset_labels` (src/resources/labels/labels-repository.ts).
 */
export const assetDocumentTouches: DocumentTouches = {
  type: 'asset',
  rows: ['assets', 'asset_labels', 'asset_metadata'],
  through: [{
    table: 'labels',
    when: (record) => record.operation === 'update' && record.columns?.includes('full_name') === true,
    ids: (trx, accountId, labelIds) => trx.selectFrom('asset_labels').select('asset_labels.asset_id as id')
      .where('asset_labels.account_id', '=', accountId).where('asset_labels.label_id', 'in', [...labelIds])
  }]
}
