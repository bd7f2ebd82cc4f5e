import type { Kysely } from 'kysely'
import type { DB } from '../../db/tables/index.ts'
import type { ApiError } from '../../errors/api-error.ts'

interface FindsById<Row> { find: (accountId: string, id: string, trx?: Kysely<DB>) => Promise<Row | undefined> }

/**
 * The row `id` names in the account, or the resource's 404: a foreign account's id is as absent as an
 * unknown one (never a 403).
 */
export function finder<Row> (repository: FindsById<Row>, notFound: (id: string) => ApiError) {
  return async (accountId: string, id: string, trx?: Kysely<DB>): Promise<Row> => {
    const row = await repository.find(accountId, id, trx)
    if (row === undefined) throw notFound(id)
    return row
  }
}
