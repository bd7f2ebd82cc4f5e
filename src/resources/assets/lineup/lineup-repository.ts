import type { Kysely } from 'kysely'
import { noteWrite } from '../../../db/index.ts'
import type { DB } from '../../../db/tables/index.ts'
import { inList } from '../../../lib/in-list.ts'

/** A channel's line-up, and the assets a line-up may name. Every function takes the account id first. */
export function createLineupRepository (db: Kysely<DB>) {
  return {
    /** The embed codes of the channel's line-up, in order. */
    async lineupOf (accountId: string, channelId: string, trx: Kysely<DB> = db): Promise<string[]> {
      const rows = await trx.selectFrom('channel_lineups').select('asset_id')
        .where('account_id', '=', accountId).where('channel_id', '=', channelId).orderBy('position').execute()
      return rows.map((row) => row.asset_id)
    },
    /** Makes `assetIds` the channel's whole line-up, in that order. */
    async replaceLineup (accountId: string, channelId: string, assetIds: readonly string[], trx: Kysely<DB> = db): Promise<void> {
      noteWrite(trx, { table: 'channel_lineups', id: channelId, operation: 'update' }, 'assets')
      await trx.deleteFrom('channel_lineups').where('account_id', '=', accountId).where('channel_id', '=', channelId).execute()
      if (assetIds.length === 0) return
      await trx.insertInto('channel_lineups')
        .values(assetIds.map((assetId, position) => ({ account_id: accountId, channel_id: channelId, position, asset_id: assetId }))).execute()
    },
    /** The assets among `ids` (embed codes) that the account holds; with `ownerId`, only those it created. */
    async assetsAmong (accountId: string, ids: readonly string[], ownerId: string | undefined, trx: Kysely<DB> = db): Promise<Array<{ id: string, asset_type: string }>> {
      if (ids.length === 0) return []
      let query = trx.selectFrom('assets').select(['id', 'asset_type']).where('account_id', '=', accountId).where('id', 'in', inList(ids))
      if (ownerId !== undefined) query = query.where('created_by', '=', ownerId)
      return await query.execute()
    }
  }
}
