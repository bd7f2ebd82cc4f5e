import type { Kysely } from 'kysely'
import type { DB } from '../../db/tables/index.ts'
import type { SearchDocument } from '../../search/index.ts'
import type { DocumentTouches } from '../../outbox/index.ts'

/**
 * A syndication's search document: its own scalar fields. `include_labels` is left out, so deleting
 * a label (which leaves the syndication's list) does not have to index the syndication again.
 */
export async function loadSyndicationDocument (db: Kysely<DB>, accountId: string, id: string): Promise<SearchDocument | null> {
  const row = await db.selectFrom('syndications')
    .select(['name', 'type', 'title', 'description', 'keywords', 'author', 'category', 'include_all_content', 'require_access_key', 'asset_types', 'created_at', 'updated_at'])
    .where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
  if (row === undefined) return null
  return {
    type: 'syndication',
    id,
    fields: {
      ...row,
      include_all_content: Number(row.include_all_content) === 1,
      require_access_key: Number(row.require_access_key) === 1,
      asset_types: JSON.parse(row.asset_types) as string[]
    }
  }
}

/** A syndication's document changes with its row alone (its labels and access keys are not in it). */
export const syndicationDocumentTouches: DocumentTouches = { type: 'syndication', rows: ['syndications'] }
