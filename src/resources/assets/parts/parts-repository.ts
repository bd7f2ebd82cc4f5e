import type { Kysely } from 'kysely'
import { noteWrite } from '../../../db/index.ts'
import type { DB } from '../../../db/tables/index.ts'
import type { LabelRow } from '../../labels/index.ts'
import { inList } from '../../../lib/in-list.ts'

export interface MetadataEntry { asset_id: string, name: string, value: string }
export type AssetLabelRow = LabelRow & { asset_id: string }

/**
 * The parts of assets kept in their own tables (metadata, labels), and the labels the assets module
 * reads. Every function takes the account id first and filters on it.
 */
export function createPartsRepository (db: Kysely<DB>) {
  return {
    async metadataOf (accountId: string, assetIds: readonly string[], trx: Kysely<DB> = db): Promise<MetadataEntry[]> {
      if (assetIds.length === 0) return []
      return await trx.selectFrom('asset_metadata').select(['asset_id', 'name', 'value'])
        .where('account_id', '=', accountId).where('asset_id', 'in', inList(assetIds)).orderBy('name').execute()
    },
    /** Replaces every metadata entry of the asset with `entries`. */
    async replaceMetadata (accountId: string, assetId: string, entries: Record<string, string>, trx: Kysely<DB> = db): Promise<void> {
      noteWrite(trx, { table: 'asset_metadata', id: assetId, operation: 'update' }, 'assets')
      await trx.deleteFrom('asset_metadata').where('account_id', '=', accountId).where('asset_id', '=', assetId).execute()
      const rows = Object.entries(entries).map(([name, value]) => ({ account_id: accountId, asset_id: assetId, name, value }))
      if (rows.length > 0) await trx.insertInto('asset_metadata').values(rows).execute()
    },
    /** The labels of the given assets, by full name. */
    async labelsOf (accountId: string, assetIds: readonly string[], trx: Kysely<DB> = db): Promise<AssetLabelRow[]> {
      if (assetIds.length === 0) return []
      return await trx.selectFrom('asset_labels').innerJoin('labels', 'labels.id', 'asset_labels.label_id')
        .selectAll('labels').select('asset_labels.asset_id')
        .where('asset_labels.account_id', '=', accountId).where('labels.account_id', '=', accountId)
        .where('asset_labels.asset_id', 'in', inList(assetIds))
        .orderBy('labels.full_name').orderBy('labels.id').execute()
    },
    /** The labels of the account among `labelIds`. */
    async findLabels (accountId: string, labelIds: readonly string[], trx: Kysely<DB> = db): Promise<LabelRow[]> {
      if (labelIds.length === 0) return []
      return await trx.selectFrom('labels').selectAll().where('account_id', '=', accountId).where('id', 'in', inList(labelIds)).execute()
    },
    /** Adds labels to an asset; labels it already carries are left as they are. */
    async addLabels (accountId: string, assetId: string, labelIds: readonly string[], trx: Kysely<DB> = db): Promise<void> {
      if (labelIds.length === 0) return
      noteWrite(trx, { table: 'asset_labels', id: assetId, operation: 'insert' }, 'assets')
      await trx.insertInto('asset_labels').values(labelIds.map((labelId) => ({ account_id: accountId, asset_id: assetId, label_id: labelId })))
        .onConflict((oc) => oc.columns(['asset_id', 'label_id']).doNothing()).execute()
    },
    /** Removes one label (or, without `labelId`, every label) from an asset. */
    async removeLabels (accountId: string, assetId: string, labelId: string | undefined, trx: Kysely<DB> = db): Promise<void> {
      noteWrite(trx, { table: 'asset_labels', id: assetId, operation: 'delete' }, 'assets')
      let query = trx.deleteFrom('asset_labels').where('account_id', '=', accountId).where('asset_id', '=', assetId)
      if (labelId !== undefined) query = query.where('label_id', '=', labelId)
      await query.execute()
    }
  }
}
