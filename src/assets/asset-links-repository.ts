import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { PlayerRow } from '../players/index.ts'
import type { PublishingRuleRow } from '../publishing-rules/index.ts'

/**
 * The players and publishing rules an asset points at, read from their modules' tables. Every
 * function takes the account id first and filters on it.
 */
export function createAssetLinksRepository (db: Kysely<DB>) {
  return {
    async findPlayer (accountId: string, playerId: string, trx: Kysely<DB> = db): Promise<PlayerRow | undefined> {
      return await trx.selectFrom('players').selectAll().where('account_id', '=', accountId).where('id', '=', playerId).executeTakeFirst()
    },
    async findPlayers (accountId: string, playerIds: readonly string[]): Promise<PlayerRow[]> {
      if (playerIds.length === 0) return []
      return await db.selectFrom('players').selectAll().where('account_id', '=', accountId).where('id', 'in', [...playerIds]).execute()
    },
    /** The account's default player, which plays assets that have none of their own. */
    async defaultPlayer (accountId: string): Promise<PlayerRow | undefined> {
      return await db.selectFrom('players').selectAll().where('account_id', '=', accountId).where('is_default', '=', 1).executeTakeFirst()
    },
    async findPublishingRule (accountId: string, ruleId: string, trx: Kysely<DB> = db): Promise<PublishingRuleRow | undefined> {
      return await trx.selectFrom('publishing_rules').selectAll().where('account_id', '=', accountId).where('id', '=', ruleId).executeTakeFirst()
    }
  }
}

export type AssetLinksRepository = ReturnType<typeof createAssetLinksRepository>
