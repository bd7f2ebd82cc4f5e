import type { Kysely } from 'kysely'
import type { DB, SyndicationAccessKeysTable, SyndicationsTable } from '../../db/tables/index.ts'
import { crudRepository } from '../kit/crud-repository.ts'
import { inList } from '../../lib/in-list.ts'

export type SyndicationRow = SyndicationsTable
export type AccessKeyRow = SyndicationAccessKeysTable
export type SyndicationChanges = Partial<Omit<SyndicationRow, 'id' | 'account_id' | 'created_at'>>

/** Syndications of one account, with their labels and access keys. Every function takes the account id first. */
export function createSyndicationsRepository (db: Kysely<DB>) {
  return {
    // Deleting a syndication deletes its labels and access keys by cascade.
    ...crudRepository(db, 'syndications'),
    /** `include_labels` of the given syndications, in the order they were given. */
    async labelIdsOf (accountId: string, syndicationIds: readonly string[], trx: Kysely<DB> = db): Promise<Array<{ syndication_id: string, label_id: string }>> {
      if (syndicationIds.length === 0) return []
      return await trx.selectFrom('syndication_labels').select(['syndication_id', 'label_id'])
        .where('account_id', '=', accountId).where('syndication_id', 'in', inList(syndicationIds)).orderBy('position').execute()
    },
    async replaceLabels (accountId: string, syndicationId: string, labelIds: readonly string[], trx: Kysely<DB> = db): Promise<void> {
      await trx.deleteFrom('syndication_labels').where('account_id', '=', accountId).where('syndication_id', '=', syndicationId).execute()
      if (labelIds.length === 0) return
      await trx.insertInto('syndication_labels')
        .values(labelIds.map((labelId, position) => ({ account_id: accountId, syndication_id: syndicationId, label_id: labelId, position }))).execute()
    },
    /** The ids among `labelIds` that are labels of the account. */
    async existingLabelIds (accountId: string, labelIds: readonly string[], trx: Kysely<DB> = db): Promise<string[]> {
      if (labelIds.length === 0) return []
      const rows = await trx.selectFrom('labels').select('id').where('account_id', '=', accountId).where('id', 'in', inList(labelIds)).execute()
      return rows.map((row) => row.id)
    },
    async accessKeysOf (accountId: string, syndicationId: string, trx: Kysely<DB> = db): Promise<AccessKeyRow[]> {
      return await trx.selectFrom('syndication_access_keys').selectAll().where('account_id', '=', accountId)
        .where('syndication_id', '=', syndicationId).orderBy('created_at').orderBy('access_key').execute()
    },
    async hasAccessKey (accountId: string, syndicationId: string, accessKey: string): Promise<boolean> {
      const row = await db.selectFrom('syndication_access_keys').select('access_key').where('account_id', '=', accountId)
        .where('syndication_id', '=', syndicationId).where('access_key', '=', accessKey).executeTakeFirst()
      return row !== undefined
    },
    async insertAccessKey (accountId: string, row: Omit<AccessKeyRow, 'account_id'>, trx: Kysely<DB> = db): Promise<void> {
      await trx.insertInto('syndication_access_keys').values({ ...row, account_id: accountId }).execute()
    },
    /** Deletes one access key; answers whether it existed. */
    async deleteAccessKey (accountId: string, syndicationId: string, accessKey: string, trx: Kysely<DB> = db): Promise<boolean> {
      const result = await trx.deleteFrom('syndication_access_keys').where('account_id', '=', accountId)
        .where('syndication_id', '=', syndicationId).where('access_key', '=', accessKey).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    }
  }
}
