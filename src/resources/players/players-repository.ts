import type { Kysely } from 'kysely'
import type { DB, PlayersTable } from '../../db/tables/index.ts'
import { noteWrites } from '../../db/index.ts'
import { crudRepository } from '../kit/crud-repository.ts'
import { inList } from '../../lib/in-list.ts'

export type PlayerRow = PlayersTable

/** Players of one account. Every function takes the account id first and filters on it. */
export function createPlayersRepository (db: Kysely<DB>) {
  return {
    ...crudRepository(db, 'players'),
    /** Clears the default flag on every player of the account but `exceptId`; returns the ids it changed. */
    async clearDefault (accountId: string, exceptId: string, updatedAt: string, trx: Kysely<DB> = db): Promise<string[]> {
      const rows = await trx.updateTable('players').set({ is_default: 0, updated_at: updatedAt })
        .where('account_id', '=', accountId).where('is_default', '=', 1).where('id', '!=', exceptId).returning('id').execute()
      const ids = rows.map((r) => r.id)
      noteWrites(trx, 'players', ids, 'update', ['is_default', 'updated_at'])
      return ids
    },
    /** The players among `ids`. */
    async findMany (accountId: string, ids: readonly string[], trx: Kysely<DB> = db): Promise<PlayerRow[]> {
      if (ids.length === 0) return []
      return await trx.selectFrom('players').selectAll().where('account_id', '=', accountId).where('id', 'in', inList(ids)).execute()
    },
    /** The account's default player, which plays assets that have none of their own. */
    async findDefault (accountId: string, trx: Kysely<DB> = db): Promise<PlayerRow | undefined> {
      return await trx.selectFrom('players').selectAll().where('account_id', '=', accountId).where('is_default', '=', 1).executeTakeFirst()
    }
  }
}
