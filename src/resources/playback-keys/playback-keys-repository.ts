import type { Kysely } from 'kysely'
import type { DB, PlaybackKeysTable } from '../../db/tables/index.ts'
import type { PageParams } from '../../paging/index.ts'
import { BY_CREATION, crudRepository, keysetPage } from '../kit/crud-repository.ts'

export type PlaybackKeyRow = PlaybackKeysTable

/**
 * Playback keys of one account. Every function takes the account id first and filters on it. `find`
 * goes through the read cache (the media routes verify tokens with it), so a revocation reaches every
 * process through the invalidation bus.
 */
export function createPlaybackKeysRepository (db: Kysely<DB>) {
  const crud = crudRepository(db, 'playback_keys')
  return {
    find: crud.find,
    insert: crud.insert,
    update: crud.update,
    /** The current (not revoked) keys, oldest first. */
    async page (accountId: string, page: PageParams): Promise<PlaybackKeyRow[]> {
      const query = db.selectFrom('playback_keys').selectAll().where('account_id', '=', accountId).where('revoked_at', 'is', null)
      return await keysetPage(query, BY_CREATION, page).execute()
    },
    /** The account's current managed key, if it has one. */
    async managed (accountId: string, trx: Kysely<DB> = db): Promise<PlaybackKeyRow | undefined> {
      return await trx.selectFrom('playback_keys').selectAll().where('account_id', '=', accountId)
        .where('managed', '=', 1).where('revoked_at', 'is', null).orderBy('created_at', 'desc').limit(1).executeTakeFirst()
    }
  }
}
