import type { Kysely } from 'kysely'
import { preparedFindById } from '../db/prepared.ts'
import type { DB } from '../db/schema.ts'
import { afterPosition, type KeyColumn, type PageParams } from '../paging/index.ts'
import type { SyndicationAccessKeysTable, SyndicationsTable } from './syndications-tables.ts'

export type SyndicationRow = SyndicationsTable
export type AccessKeyRow = SyndicationAccessKeysTable
export type SyndicationChanges = Partial<Omit<SyndicationRow, 'id' | 'account_id' | 'created_at'>>

/** Oldest first, like the other resources: edits never move a syndication in a paged walk. */
export const SYNDICATION_ORDER: KeyColumn[] = [{ column: 'created_at', direction: 'asc' }, { column: 'id', direction: 'asc' }]

/** Syndications of one account, with their labels and access keys. Every function takes the account id first. */
export function createSyndicationsRepository (db: Kysely<DB>) {
  const byId = preparedFindById<SyndicationRow>(db, 'syndications')
  return {
    async find (accountId: string, syndicationId: string, trx: Kysely<DB> = db): Promise<SyndicationRow | undefined> {
      return await byId.first(trx, accountId, syndicationId)
    },
    /** `limit + 1` rows after the page position, in SYNDICATION_ORDER. */
    async page (accountId: string, page: PageParams): Promise<SyndicationRow[]> {
      let query = db.selectFrom('syndications').selectAll().where('account_id', '=', accountId)
      if (page.after !== undefined) {
        const after = page.after
        query = query.where((eb) => afterPosition(eb, SYNDICATION_ORDER, after))
      }
      return await query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(page.limit + 1).execute()
    },
    async insert (accountId: string, row: Omit<SyndicationRow, 'account_id'>, trx: Kysely<DB> = db): Promise<void> {
      await trx.insertInto('syndications').values({ ...row, account_id: accountId }).execute()
    },
    async update (accountId: string, syndicationId: string, changes: SyndicationChanges, trx: Kysely<DB> = db): Promise<void> {
      await trx.updateTable('syndications').set(changes).where('account_id', '=', accountId).where('id', '=', syndicationId).execute()
    },
    /** Deletes the syndication; its labels and access keys go by cascade. */
    async delete (accountId: string, syndicationId: string, trx: Kysely<DB> = db): Promise<void> {
      await trx.deleteFrom('syndications').where('account_id', '=', accountId).where('id', '=', syndicationId).execute()
    },
    /** `include_labels` of the given syndications, in the order they were given. */
    async labelIdsOf (accountId: string, syndicationIds: readonly string[], trx: Kysely<DB> = db): Promise<Array<{ syndication_id: string, label_id: string }>> {
      if (syndicationIds.length === 0) return []
      return await trx.selectFrom('syndication_labels').select(['syndication_id', 'label_id'])
        .where('account_id', '=', accountId).where('syndication_id', 'in', [...syndicationIds]).orderBy('position').execute()
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
      const rows = await trx.selectFrom('labels').select('id').where('account_id', '=', accountId).where('id', 'in', [...labelIds]).execute()
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

export type SyndicationsRepository = ReturnType<typeof createSyndicationsRepository>
