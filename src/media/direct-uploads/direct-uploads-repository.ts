import type { Kysely, Updateable } from 'kysely'
import type { DB, DirectUploadsTable, DirectUploadStatus } from '../../db/tables/index.ts'
import { keysetPage, BY_CREATION } from '../../resources/kit/crud-repository.ts'
import type { PageParams } from '../../paging/index.ts'
import type { PartPlace } from '../store/index.ts'

export type DirectUploadRow = DirectUploadsTable

/**
 * Direct uploads and their tus parts. Every function takes the account id first and filters on it,
 * except `findById`, which the tus URL reaches with no account (its token is checked against the id).
 * Reads go to the database, never to a process cache: another api process may have moved the upload on.
 */
export function createDirectUploadsRepository (db: Kysely<DB>) {
  return {
    async find (accountId: string, id: string, trx: Kysely<DB> = db): Promise<DirectUploadRow | undefined> {
      return await trx.selectFrom('direct_uploads').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
    },
    async page (accountId: string, page: PageParams): Promise<DirectUploadRow[]> {
      return await keysetPage(db.selectFrom('direct_uploads').selectAll().where('account_id', '=', accountId), BY_CREATION, page).execute()
    },
    async insert (row: DirectUploadRow): Promise<void> {
      await db.insertInto('direct_uploads').values(row).execute()
    },
    /** Changes the row only while its status is `from`; answers whether it did. */
    async update (accountId: string, id: string, from: DirectUploadStatus, changes: Updateable<DirectUploadRow>, trx: Kysely<DB> = db): Promise<boolean> {
      const result = await trx.updateTable('direct_uploads').set(changes)
        .where('account_id', '=', accountId).where('id', '=', id).where('status', '=', from).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    /** Records the tus upload created on the URL: only when none lives (a second creation finds it taken). */
    async claimUpload (accountId: string, id: string, changes: Pick<DirectUploadRow, 'upload_id' | 'upload_length' | 'upload_metadata' | 'updated_at'>): Promise<boolean> {
      const result = await db.updateTable('direct_uploads').set({ ...changes, upload_offset: 0, part_count: 0 })
        .where('account_id', '=', accountId).where('id', '=', id).where('status', '=', 'waiting').where('upload_id', 'is', null).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    /** Records one stored part and moves the offset past it, only from the offset the part was written at. */
    async addPart (accountId: string, id: string, place: PartPlace, updatedAt: string): Promise<boolean> {
      return await db.transaction().execute(async (trx) => {
        const result = await trx.updateTable('direct_uploads')
          .set({ upload_offset: place.offset + place.length, part_count: place.index + 1, updated_at: updatedAt })
          .where('account_id', '=', accountId).where('id', '=', id).where('status', '=', 'waiting')
          .where('upload_offset', '=', place.offset).where('part_count', '=', place.index)
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) === 0) return false
        await trx.insertInto('direct_upload_parts')
          .values({ direct_upload_id: id, part_index: place.index, part_offset: place.offset, part_length: place.length }).execute()
        return true
      })
    },
    async partsOf (id: string): Promise<PartPlace[]> {
      const rows = await db.selectFrom('direct_upload_parts').selectAll().where('direct_upload_id', '=', id).orderBy('part_index').execute()
      return rows.map((row) => ({ index: row.part_index, offset: Number(row.part_offset), length: Number(row.part_length) }))
    },
    /** Forgets the tus upload (terminated): the URL may create another. */
    async dropUpload (accountId: string, id: string, updatedAt: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('direct_upload_parts').where('direct_upload_id', '=', id).execute()
        await trx.updateTable('direct_uploads')
          .set({ upload_id: null, upload_length: null, upload_offset: 0, part_count: 0, upload_metadata: null, updated_at: updatedAt })
          .where('account_id', '=', accountId).where('id', '=', id).execute()
      })
    },
    /** The waiting direct uploads a user created (cancelled when the user can no longer create assets). */
    async waitingOf (accountId: string, userId: string): Promise<DirectUploadRow[]> {
      return await db.selectFrom('direct_uploads').selectAll().where('account_id', '=', accountId).where('created_by', '=', userId).where('status', '=', 'waiting').execute()
    },
    /** Waiting direct uploads past their expiry, for the sweep. */
    async expired (now: string, limit: number): Promise<DirectUploadRow[]> {
      return await db.selectFrom('direct_uploads').selectAll().where('status', '=', 'waiting').where('expires_at', '<', now).limit(limit).execute()
    }
  }
}

/** The direct upload of a tus URL: found by id alone; the caller then checks the URL's token against it. */
export async function findDirectUploadOfUrl (db: Kysely<DB>, id: string): Promise<DirectUploadRow | undefined> {
  return await db.selectFrom('direct_uploads').selectAll().where('id', '=', id).executeTakeFirst()
}

export type DirectUploadsRepository = ReturnType<typeof createDirectUploadsRepository>
