import type { Kysely, Selectable } from 'kysely'
import { noteWrite } from '../../../db/index.ts'
import type { AssetCaptionsTable, DB } from '../../../db/tables/index.ts'

export type CaptionRow = Selectable<AssetCaptionsTable>
export type CaptionSummary = Omit<CaptionRow, 'original' | 'webvtt'>

const SUMMARY = ['account_id', 'asset_id', 'language', 'name', 'format', 'auto_generated', 'engine', 'cue_count', 'created_at', 'updated_at'] as const

/** An asset's caption tracks. Every function takes the account id first. */
export function createCaptionsRepository (db: Kysely<DB>) {
  return {
    /** The asset's tracks without their bodies, by language. */
    async list (accountId: string, assetId: string, trx: Kysely<DB> = db): Promise<CaptionSummary[]> {
      return await trx.selectFrom('asset_captions').select(SUMMARY)
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).orderBy('language').execute()
    },
    async find (accountId: string, assetId: string, language: string, trx: Kysely<DB> = db): Promise<CaptionRow | undefined> {
      return await trx.selectFrom('asset_captions').selectAll()
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('language', '=', language).executeTakeFirst()
    },
    /** Writes the track for its language, replacing the one there was (recorded by the asset's id). */
    async upsert (accountId: string, row: CaptionRow, trx: Kysely<DB> = db): Promise<void> {
      noteWrite(trx, { table: 'asset_captions', id: row.asset_id, operation: 'insert' }, 'assets')
      const { created_at: _created, account_id: _account, asset_id: _asset, language: _language, ...changes } = row
      await trx.insertInto('asset_captions').values({ ...row, account_id: accountId })
        .onConflict((conflict) => conflict.columns(['asset_id', 'language']).doUpdateSet(changes)).execute()
    },
    /** Deletes the track; true when there was one. */
    async remove (accountId: string, assetId: string, language: string, trx: Kysely<DB> = db): Promise<boolean> {
      noteWrite(trx, { table: 'asset_captions', id: assetId, operation: 'delete' }, 'assets')
      const result = await trx.deleteFrom('asset_captions')
        .where('account_id', '=', accountId).where('asset_id', '=', assetId).where('language', '=', language).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    /** The caption language a player sets: the asset's own player, else the account's default player; '' when neither says. */
    async playerLanguage (accountId: string, playerId: string | null, trx: Kysely<DB> = db): Promise<string> {
      let query = trx.selectFrom('players').select('default_closed_caption_language').where('account_id', '=', accountId)
      query = playerId === null ? query.where('is_default', '=', 1) : query.where('id', '=', playerId)
      return (await query.executeTakeFirst())?.default_closed_caption_language ?? ''
    }
  }
}
