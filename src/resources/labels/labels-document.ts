import type { Kysely } from 'kysely'
import type { DB } from '../../db/tables/index.ts'
import type { SearchDocument } from '../../search/index.ts'
import type { DocumentTouches } from '../../outbox/index.ts'

/** A label's search document; null when the label no longer exists. */
export async function loadLabelDocument (db: Kysely<DB>, accountId: string, id: string): Promise<SearchDocument | null> {
  const row = await db.selectFrom('labels').select(['name', 'full_name', 'parent_id', 'created_at', 'updated_at'])
    .where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
  return row === undefined ? null : { type: 'label', id, fields: { ...row } }
}

/** A label's document changes with its row; a rename changes the rows of the labels under it too. */
export const labelDocumentTouches: DocumentTouches = { type: 'label', rows: ['labels'] }
