import type { Kysely } from 'kysely'
import type { DB } from '../../db/tables/index.ts'
import type { SearchDocument } from '../../search/index.ts'
import type { DocumentTouches } from '../../outbox/index.ts'

/** A player's search document: its name and provider, whether it is the default, dates. */
export async function loadPlayerDocument (db: Kysely<DB>, accountId: string, id: string): Promise<SearchDocument | null> {
  const row = await db.selectFrom('players').select(['name', 'is_default', 'provider_name', 'created_at', 'updated_at'])
    .where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
  if (row === undefined) return null
  return { type: 'player', id, fields: { ...row, is_default: Number(row.is_default) === 1 } }
}

/** A player's document changes with its row (a new default clears the flag on the others' rows). */
export const playerDocumentTouches: DocumentTouches = { type: 'player', rows: ['players'] }
