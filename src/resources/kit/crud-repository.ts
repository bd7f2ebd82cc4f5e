import type { Insertable, Kysely, Selectable, SelectQueryBuilder, Updateable } from 'kysely'
import { noteWrite, preparedFindById, readCacheFor } from '../../db/index.ts'
import type { DB } from '../../db/tables/index.ts'
import { afterPosition, type KeyColumn, type KeyValue, type PageParams } from '../../paging/index.ts'

/** The tables whose rows belong to one account and carry an id of their own. */
export type AccountTable = { [T in keyof DB]: DB[T] extends { id: string, account_id: string } ? T : never }[keyof DB]

/** Creation order, then id: a change to a row never moves it in a paged walk. */
export const BY_CREATION: readonly KeyColumn[] = [{ column: 'created_at', direction: 'asc' }, { column: 'id', direction: 'asc' }]

/** The keyset position of a row in `order`, as a page token stores it. */
export function positionIn<Row> (order: readonly KeyColumn[]): (row: Row) => KeyValue[] {
  return (row) => order.map(({ column }) => (row as Record<string, KeyValue>)[column] as KeyValue)
}

/**
 * One keyset page of `query`: the rows strictly after the page position in `order`, sorted by it, and
 * one more than the page holds, so `toPage` knows whether another page follows. Every list goes through here.
 */
export function keysetPage<DBT, TB extends keyof DBT, O> (query: SelectQueryBuilder<DBT, TB, O>, order: readonly KeyColumn[], page: PageParams): SelectQueryBuilder<DBT, TB, O> {
  const after = page.after
  let paged = after === undefined ? query : query.where((eb) => afterPosition(eb, [...order], after))
  for (const { column, direction } of order) paged = paged.orderBy(column as any, direction)
  return paged.limit(page.limit + 1)
}

/**
 * The five queries every account-owned table answers: by id, a keyset page, insert, update and delete,
 * each taking the account id first and filtering on it. Each write records the row it changed
 * (src/db/changes.ts): the outbox entries of the documents it touches follow in the same transaction, and
 * the invalidation bus tells every process's caches; a new resource is covered by using them. A resource's repository spreads these and adds
 * its own queries. Kysely cannot check a table chosen by a type parameter, so the builder is untyped
 * inside this one function; the signatures are the table's own types.
 */
export function crudRepository<T extends AccountTable> (db: Kysely<DB>, table: T, order: readonly KeyColumn[] = BY_CREATION) {
  type Row = Selectable<DB[T]>
  const byId = preparedFindById<Row>(db, table)
  const untyped = (runner: Kysely<DB>): Kysely<any> => runner
  const name: string = table
  const keyOf = (accountId: string, id: string): string => `${name}\u0000${accountId}\u0000${id}`
  return {
    /** By id; outside a transaction through the process's read cache, which the invalidation bus keeps fresh. */
    async find (accountId: string, id: string, trx: Kysely<DB> = db): Promise<Row | undefined> {
      const cache = readCacheFor(db, trx)
      if (cache === undefined) return await byId.first(trx, accountId, id)
      const key = keyOf(accountId, id)
      const cached = cache.get(key) as Row | undefined
      if (cached !== undefined) return cached
      const epoch = cache.epoch
      const row = await byId.first(trx, accountId, id)
      if (row !== undefined) cache.set(key, epoch, { accountId, table: name, id, value: row })
      return row
    },
    /**
     * By id from the read cache alone, at once: the row `find` would answer, or undefined when the cache
     * does not hold it (absent, not yet read, forgotten, or no cache), which says nothing about the table.
     */
    peek (accountId: string, id: string): Row | undefined {
      return readCacheFor(db, db)?.get(keyOf(accountId, id)) as Row | undefined
    },
    /** `limit + 1` rows after the page position, in the repository's order (see `toPage`). */
    async page (accountId: string, page: PageParams, trx: Kysely<DB> = db): Promise<Row[]> {
      const query = untyped(trx).selectFrom(name).selectAll().where('account_id', '=', accountId)
      return await keysetPage(query, order, page).execute() as Row[]
    },
    async insert (accountId: string, row: Omit<Insertable<DB[T]>, 'account_id'>, trx: Kysely<DB> = db): Promise<void> {
      await untyped(trx).insertInto(name).values({ ...row, account_id: accountId }).execute()
      noteWrite(trx, { table: name, id: (row as unknown as { id: string }).id, operation: 'insert' })
    },
    async update (accountId: string, id: string, changes: Updateable<DB[T]>, trx: Kysely<DB> = db): Promise<void> {
      await untyped(trx).updateTable(name).set(changes).where('account_id', '=', accountId).where('id', '=', id).execute()
      noteWrite(trx, { table: name, id, operation: 'update', columns: Object.keys(changes) })
    },
    async delete (accountId: string, id: string, trx: Kysely<DB> = db): Promise<void> {
      await untyped(trx).deleteFrom(name).where('account_id', '=', accountId).where('id', '=', id).execute()
      noteWrite(trx, { table: name, id, operation: 'delete' })
    }
  }
}
