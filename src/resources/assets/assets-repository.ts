import { sql, type ExpressionBuilder, type Kysely } from 'kysely'
import { noteWrite } from '../../db/index.ts'
import { prepared, SLOT } from '../../db/prepared.ts'
import type { AssetsTable, DB, DeletedAssetsTable } from '../../db/tables/index.ts'
import type { KeyColumn, PageParams } from '../../paging/index.ts'
import type { WhereFilter } from '../../query/index.ts'
import { keysetPage } from '../kit/crud-repository.ts'
import { isUploadType } from './assets-kinds.ts'
import { inList } from '../../lib/in-list.ts'

/** An asset as the reads give it: its row, and the progress of its media version (see `versionProgress`). */
export type AssetRow = AssetsTable & { version_progress?: number | null }
export type DeletedAssetRow = DeletedAssetsTable

/** What a list of assets is narrowed to, besides the account. */
export interface AssetListQuery {
  /** `upload_only` callers see only the assets they created. */
  ownerId: string | undefined
  /** Only assets carrying this label (`/v2/labels/:id/assets`). */
  labelId?: string
  /** Only these statuses (feeds show `live` assets). */
  statuses?: readonly string[]
  /** Only these types; undefined or empty means all. */
  assetTypes?: readonly string[]
  /** Only assets carrying one of these labels (syndication `include_labels`). */
  anyLabelIds?: readonly string[]
  where?: WhereFilter
  order: readonly KeyColumn[]
}

/**
 * Assets of one account. Every function takes the account id first and filters on it; the ones a
 * caller reaches by id also take the owner (set for `upload_only`, whose other assets do not exist for it).
 */
export function createAssetsRepository (db: Kysely<DB>) {
  // By embed code, else by external_id; an embed code wins over another asset's external_id. Every
  // request on one asset runs one of these, so they are built once (src/db/prepared.ts).
  const byRef = (owned: boolean) => {
    let query = db.selectFrom('assets').selectAll().select(versionProgress).where('account_id', '=', SLOT)
      .where((eb) => eb.or([eb('id', '=', SLOT), eb('external_id', '=', SLOT)]))
    if (owned) query = query.where('created_by', '=', SLOT)
    return prepared<AssetRow>(query.orderBy(sql`CASE WHEN id = ${SLOT} THEN 0 ELSE 1 END`).limit(1))
  }
  const anyOwner = byRef(false)
  const ownedBy = byRef(true)
  return {
    /** By embed code, else by external_id; `ownerId` (upload_only) narrows to the assets it created. */
    async findByRef (accountId: string, ref: string, ownerId: string | undefined, trx: Kysely<DB> = db): Promise<AssetRow | undefined> {
      return ownerId === undefined
        ? await anyOwner.first(trx, accountId, ref, ref, ref)
        : await ownedBy.first(trx, accountId, ref, ref, ownerId, ref)
    },
    /** The asset already holding a unique value (`external_id`, `youtube_id`), whoever owns it. */
    async findByUnique (accountId: string, column: 'external_id' | 'youtube_id', value: string, trx: Kysely<DB> = db): Promise<Pick<AssetRow, 'id'> | undefined> {
      return await trx.selectFrom('assets').select('id').where('account_id', '=', accountId).where(column, '=', value).executeTakeFirst()
    },
    /** `limit + 1` rows after the page position, in `query.order`. */
    async page (accountId: string, query: AssetListQuery, page: PageParams): Promise<AssetRow[]> {
      let select = db.selectFrom('assets').selectAll().select(versionProgress).where('assets.account_id', '=', accountId)
      if (query.ownerId !== undefined) select = select.where('assets.created_by', '=', query.ownerId)
      if (query.statuses !== undefined) select = select.where('assets.status', 'in', [...query.statuses])
      if (query.assetTypes !== undefined && query.assetTypes.length > 0) select = select.where('assets.asset_type', 'in', [...query.assetTypes])
      const { labelId, anyLabelIds, where } = query
      if (labelId !== undefined) {
        select = select.where(({ exists, selectFrom }) => exists(selectFrom('asset_labels').select('asset_labels.asset_id')
          .where('asset_labels.account_id', '=', accountId).whereRef('asset_labels.asset_id', '=', 'assets.id').where('asset_labels.label_id', '=', labelId)))
      }
      if (anyLabelIds !== undefined) {
        if (anyLabelIds.length === 0) return []
        select = select.where(({ exists, selectFrom }) => exists(selectFrom('asset_labels').select('asset_labels.asset_id')
          .where('asset_labels.account_id', '=', accountId).whereRef('asset_labels.asset_id', '=', 'assets.id').where('asset_labels.label_id', 'in', inList(anyLabelIds))))
      }
      if (where !== undefined) select = select.where(where)
      return await keysetPage(select, query.order, page).execute()
    },
    async insert (accountId: string, row: Omit<AssetsTable, 'account_id'>, trx: Kysely<DB> = db): Promise<void> {
      await trx.insertInto('assets').values({ ...row, account_id: accountId, duration: Number(row.duration), file_size: numberOrNull(row.file_size), chunk_size: numberOrNull(row.chunk_size) }).execute()
      noteWrite(trx, { table: 'assets', id: row.id, operation: 'insert', status: { before: null, after: row.status } })
    },
    /** Changes the asset `before` was; its status before and after go with the change record (src/db/changes.ts). */
    async update (accountId: string, before: Pick<AssetRow, 'id' | 'status'>, changes: AssetChanges, trx: Kysely<DB> = db): Promise<void> {
      await trx.updateTable('assets').set(changes).where('account_id', '=', accountId).where('id', '=', before.id).execute()
      noteWrite(trx, { table: 'assets', id: before.id, operation: 'update', columns: Object.keys(changes), status: { before: before.status, after: changes.status ?? before.status } })
    },
    /**
     * Deletes the asset (its metadata and labels go by cascade) and records it as deleted, with its media
     * files still to remove when it is of a type that has uploaded media.
     */
    async delete (accountId: string, asset: AssetRow, deletedAt: string, trx: Kysely<DB> = db): Promise<void> {
      await trx.insertInto('deleted_assets').values({
        id: asset.id, account_id: accountId, asset_type: asset.asset_type, name: asset.name, external_id: asset.external_id, created_by: asset.created_by, deleted_at: deletedAt,
        media_removed_at: isUploadType(asset.asset_type) ? null : deletedAt
      }).execute()
      await trx.deleteFrom('assets').where('account_id', '=', accountId).where('id', '=', asset.id).execute()
      noteWrite(trx, { table: 'assets', id: asset.id, operation: 'delete', status: { before: asset.status, after: null } })
    },
    /** Records that a deleted asset's media files are removed. */
    async markMediaRemoved (accountId: string, assetId: string, removedAt: string): Promise<void> {
      await db.updateTable('deleted_assets').set({ media_removed_at: removedAt })
        .where('account_id', '=', accountId).where('id', '=', assetId).where('media_removed_at', 'is', null).execute()
    },
    /**
     * Deleted assets, of every account, whose media files may remain although they were deleted before
     * `cutoff`: the media worker's sweep serves all tenants and removes each under the account it names.
     */
    async mediaToRemove (cutoff: string, limit: number): Promise<Array<Pick<DeletedAssetsTable, 'account_id' | 'id'>>> {
      return await db.selectFrom('deleted_assets').select(['account_id', 'id'])
        .where('media_removed_at', 'is', null).where('deleted_at', '<', cutoff).orderBy('deleted_at').limit(limit).execute()
    },
    /** Deleted assets, newest first: `limit + 1` rows after the page position. */
    async pageDeleted (accountId: string, ownerId: string | undefined, page: PageParams): Promise<DeletedAssetRow[]> {
      let select = db.selectFrom('deleted_assets').selectAll().where('account_id', '=', accountId)
      if (ownerId !== undefined) select = select.where('created_by', '=', ownerId)
      return await keysetPage(select, DELETED_ORDER, page).execute()
    }
  }
}

/** Every column a write may change (the identity and upload columns stay). */
export type AssetChanges = Partial<Omit<AssetsTable, 'id' | 'account_id' | 'created_at' | 'created_by' | 'file_size' | 'chunk_size'>>

export const DELETED_ORDER: readonly KeyColumn[] = [{ column: 'deleted_at', direction: 'desc' }, { column: 'id', direction: 'desc' }]

/**
 * The progress of the asset's media version being made, else of the one served (as `GET …/streams`
 * picks it): progress ticks write only there (docs/media.md, "State"). Null when it has none; the
 * asset's own `processing_progress` then holds what its last state change set.
 */
function versionProgress (eb: ExpressionBuilder<DB, 'assets'>) {
  return eb.selectFrom('media_versions').select('media_versions.progress')
    .whereRef('media_versions.account_id', '=', 'assets.account_id').whereRef('media_versions.asset_id', '=', 'assets.id')
    .where('media_versions.state', 'not in', ['retired', 'discarded'])
    .orderBy('media_versions.created_at', 'desc').orderBy('media_versions.version', 'desc').limit(1)
    .as('version_progress')
}

function numberOrNull (value: number | string | null): number | null {
  return value === null ? null : Number(value)
}
