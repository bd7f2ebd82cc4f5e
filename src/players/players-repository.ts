import type { Kysely } from 'kysely'
import { preparedFindById } from '../db/prepared.ts'
import type { DB } from '../db/schema.ts'
import { afterPosition, type KeyColumn, type PageParams } from '../paging/index.ts'

export interface PlayersTable {
  id: string
  account_id: string
  name: string
  /** 0/1; at most one 1 per account (partial unique index). */
  is_default: number
  provider_homepage_url: string | null
  provider_name: string
  default_closed_caption_language: string
  /** JSON objects, as text. */
  branding: string
  watermark: string
  playback: string
  /** JSON object of string pairs (`/v2/players/:id/metadata`), as text. */
  metadata: string
  created_at: string
  updated_at: string
}

declare module '../db/schema.ts' {
  interface DB { players: PlayersTable }
}

export type PlayerRow = PlayersTable
export type PlayerColumns = Omit<PlayerRow, 'id' | 'account_id' | 'metadata' | 'created_at' | 'updated_at'>

const PLAYER_ORDER: KeyColumn[] = [{ column: 'created_at', direction: 'asc' }, { column: 'id', direction: 'asc' }]

/** Players of one account. Every function takes the account id first and filters on it. */
export function createPlayersRepository (db: Kysely<DB>) {
  const byId = preparedFindById<PlayerRow>(db, 'players')
  return {
    async find (accountId: string, playerId: string, trx: Kysely<DB> = db): Promise<PlayerRow | undefined> {
      return await byId.first(trx, accountId, playerId)
    },
    /** `limit + 1` rows after the page position, oldest first. */
    async page (accountId: string, page: PageParams): Promise<PlayerRow[]> {
      let query = db.selectFrom('players').selectAll().where('account_id', '=', accountId)
      if (page.after !== undefined) {
        const after = page.after
        query = query.where((eb) => afterPosition(eb, PLAYER_ORDER, after))
      }
      return await query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(page.limit + 1).execute()
    },
    async insert (accountId: string, row: Omit<PlayerRow, 'account_id'>, trx: Kysely<DB> = db): Promise<void> {
      await trx.insertInto('players').values({ ...row, account_id: accountId }).execute()
    },
    async update (accountId: string, playerId: string, changes: Partial<Omit<PlayerRow, 'id' | 'account_id' | 'created_at'>>, trx: Kysely<DB> = db): Promise<void> {
      await trx.updateTable('players').set(changes).where('account_id', '=', accountId).where('id', '=', playerId).execute()
    },
    /** Clears the default flag on every player of the account but `exceptId`; returns the ids it changed. */
    async clearDefault (accountId: string, exceptId: string, updatedAt: string, trx: Kysely<DB> = db): Promise<string[]> {
      const rows = await trx.updateTable('players').set({ is_default: 0, updated_at: updatedAt })
        .where('account_id', '=', accountId).where('is_default', '=', 1).where('id', '!=', exceptId).returning('id').execute()
      return rows.map((r) => r.id)
    },
    async delete (accountId: string, playerId: string, trx: Kysely<DB> = db): Promise<void> {
      await trx.deleteFrom('players').where('account_id', '=', accountId).where('id', '=', playerId).execute()
    }
  }
}

export type PlayersRepository = ReturnType<typeof createPlayersRepository>
