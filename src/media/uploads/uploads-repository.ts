import type { Kysely } from 'kysely'
import type { ChunkState, DB, MediaUploadsTable, UploadKind } from '../../db/tables/index.ts'

export type UploadRow = MediaUploadsTable

export interface ChunkRecord {
  chunk_index: number
  state: ChunkState
}

/** Uploads and their chunks. Every function takes the account id first and filters on it. */
export function createUploadsRepository (db: Kysely<DB>) {
  return {
    /** The open (`uploading`) upload of this kind for the asset, if any. */
    async findOpen (accountId: string, assetId: string, kind: UploadKind, trx: Kysely<DB> = db): Promise<UploadRow | undefined> {
      return await trx.selectFrom('media_uploads').selectAll()
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('kind', '=', kind).where('state', '=', 'uploading')
        .executeTakeFirst()
    },
    /** The newest finished (`uploaded`) upload of the asset: where its current original is. */
    async findLastUploaded (accountId: string, assetId: string, trx: Kysely<DB> = db): Promise<UploadRow | undefined> {
      return await trx.selectFrom('media_uploads').selectAll()
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('state', '=', 'uploaded')
        .orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(1)
        .executeTakeFirst()
    },
    async insert (row: UploadRow, trx: Kysely<DB>): Promise<void> {
      await trx.insertInto('media_uploads').values(row).execute()
    },
    async finish (accountId: string, uploadId: string, changes: Pick<UploadRow, 'state' | 'original_key' | 'updated_at'>, trx: Kysely<DB>): Promise<void> {
      await trx.updateTable('media_uploads').set(changes).where('account_id', '=', accountId).where('id', '=', uploadId).execute()
    },
    /** The chunks received so far, good and bad, in index order. */
    async chunksOf (accountId: string, uploadId: string, trx: Kysely<DB> = db): Promise<ChunkRecord[]> {
      return await trx.selectFrom('media_upload_chunks').select(['chunk_index', 'state'])
        .where('account_id', '=', accountId).where('upload_id', '=', uploadId).orderBy('chunk_index').execute()
    },
    /** A chunk being written again is bad until that PUT completes: its bytes are being replaced. */
    async unmarkGood (accountId: string, uploadId: string, index: number): Promise<void> {
      await db.updateTable('media_upload_chunks').set({ state: 'bad' })
        .where('account_id', '=', accountId).where('upload_id', '=', uploadId).where('chunk_index', '=', index).where('state', '=', 'good')
        .execute()
    },
    /** Records the last complete PUT of a chunk: it replaces whatever an earlier PUT left. */
    async recordChunk (accountId: string, uploadId: string, index: number, state: ChunkState, size: number, receivedAt: string): Promise<void> {
      await db.insertInto('media_upload_chunks')
        .values({ account_id: accountId, upload_id: uploadId, chunk_index: index, state, size, received_at: receivedAt })
        .onConflict((oc) => oc.columns(['upload_id', 'chunk_index']).doUpdateSet({ state, size, received_at: receivedAt }))
        .execute()
    }
  }
}

/**
 * The upload a chunk URL names. The URL carries no account: its signature binds the asset and the
 * upload, and this lookup requires both to match the same row.
 */
export async function findUploadOfChunkUrl (db: Kysely<DB>, assetId: string, uploadId: string): Promise<UploadRow | undefined> {
  return await db.selectFrom('media_uploads').selectAll().where('id', '=', uploadId).where('asset_id', '=', assetId).executeTakeFirst()
}
