import { sql, type Kysely } from 'kysely'
import { noteWrites } from '../../db/index.ts'
import type { DB, LabelsTable } from '../../db/tables/index.ts'
import type { PageParams } from '../../paging/index.ts'
import { BY_CREATION, crudRepository, keysetPage } from '../kit/crud-repository.ts'

export type LabelRow = LabelsTable

/** Which labels a list shows: all, only top-level ones, only labels with a parent, or one label's children. */
export type LabelsFilter = { kind: 'all' } | { kind: 'roots' } | { kind: 'non_roots' } | { kind: 'children', parentId: string }

/** Labels of one account. Every function takes the account id first and filters on it. */
export function createLabelsRepository (db: Kysely<DB>) {
  const crud = crudRepository(db, 'labels')
  return {
    find: crud.find,
    insert: crud.insert,
    update: crud.update,
    async findByFullNames (accountId: string, fullNames: string[], trx: Kysely<DB> = db): Promise<LabelRow[]> {
      if (fullNames.length === 0) return []
      return await trx.selectFrom('labels').selectAll().where('account_id', '=', accountId).where('full_name', 'in', fullNames).execute()
    },
    /** The label called `name` directly under `parentId` (null: at the top level). */
    async findSibling (accountId: string, parentId: string | null, name: string, trx: Kysely<DB> = db): Promise<LabelRow | undefined> {
      return await trx.selectFrom('labels').selectAll().where('account_id', '=', accountId)
        .where('parent_id', parentId === null ? 'is' : '=', parentId).where('name', '=', name).executeTakeFirst()
    },
    async hasChildren (accountId: string, labelId: string, trx: Kysely<DB> = db): Promise<boolean> {
      const row = await trx.selectFrom('labels').select('id').where('account_id', '=', accountId).where('parent_id', '=', labelId).limit(1).executeTakeFirst()
      return row !== undefined
    },
    /** `limit + 1` rows after the page position, in creation order: a rename or move never moves a label in a paged walk. */
    async page (accountId: string, filter: LabelsFilter, page: PageParams): Promise<LabelRow[]> {
      let query = db.selectFrom('labels').selectAll().where('account_id', '=', accountId)
      if (filter.kind === 'roots') query = query.where('parent_id', 'is', null)
      if (filter.kind === 'non_roots') query = query.where('parent_id', 'is not', null)
      if (filter.kind === 'children') query = query.where('parent_id', '=', filter.parentId)
      return await keysetPage(query, BY_CREATION, page).execute()
    },
    /**
     * Rewrites the `full_name` of every descendant of the label that was `oldFullName` in one statement,
     * replacing that prefix with `newFullName`. Returns the ids it changed. Lengths are in characters
     * (code points), as `substr` counts them on both engines.
     */
    async renameDescendants (accountId: string, oldFullName: string, newFullName: string, updatedAt: string, trx: Kysely<DB> = db): Promise<string[]> {
      const oldPrefix = `${oldFullName}/`
      const rows = await trx.updateTable('labels')
        .set({ full_name: sql<string>`CAST(${newFullName} AS text) || substr(full_name, ${charLength(oldFullName) + 1})`, updated_at: updatedAt })
        .where('account_id', '=', accountId)
        .where(sql<boolean>`substr(full_name, 1, ${charLength(oldPrefix)}) = ${oldPrefix}`)
        .returning('id').execute()
      const ids = rows.map((r) => r.id)
      noteWrites(trx, 'labels', ids, 'update', ['full_name', 'updated_at'])
      return ids
    },
    /**
     * Deletes the label and all its descendants; returns the ids it deleted. Their links to assets are
     * deleted first, by name rather than by the cascade, so the write records which assets lose a label.
     */
    async deleteSubtree (accountId: string, label: Pick<LabelRow, 'id' | 'full_name'>, trx: Kysely<DB> = db): Promise<string[]> {
      const prefix = `${label.full_name}/`
      const subtree = trx.selectFrom('labels').select('labels.id').where('labels.account_id', '=', accountId)
        .where((eb) => eb.or([eb('labels.id', '=', label.id), eb(sql<string>`substr(labels.full_name, 1, ${charLength(prefix)})`, '=', prefix)]))
      const links = await trx.deleteFrom('asset_labels').where('account_id', '=', accountId).where('label_id', 'in', subtree)
        .returning('asset_id').execute()
      noteWrites(trx, 'asset_labels', links.map((link) => link.asset_id), 'delete', undefined, 'assets')
      const rows = await trx.deleteFrom('labels').where('account_id', '=', accountId).where('id', 'in', subtree).returning('id').execute()
      const ids = rows.map((r) => r.id)
      noteWrites(trx, 'labels', ids, 'delete')
      return ids
    }
  }
}

function charLength (text: string): number {
  return [...text].length
}
