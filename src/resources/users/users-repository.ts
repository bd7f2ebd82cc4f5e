import type { Kysely } from 'kysely'
import { prepared, readCacheFor, SLOT } from '../../db/index.ts'
import type { DB, UsersTable } from '../../db/tables/index.ts'
import type { KeyColumn } from '../../paging/index.ts'
import { crudRepository } from '../kit/crud-repository.ts'

export type UserRow = UsersTable

/** Users page by id. */
export const USER_ORDER: readonly KeyColumn[] = [{ column: 'id', direction: 'asc' }]

/** Users of one account. Every function takes the account id first and filters on it, but the credential lookup. */
export function createUsersRepository (db: Kysely<DB>) {
  const credentialQuery = (accountCode: string, apiKey: string) => db.selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id as userId', 'users.account_id as accountId', 'users.role', 'users.secret_enc', 'accounts.code as accountCode'])
    .where('accounts.code', '=', accountCode)
    .where('users.api_key', '=', apiKey)
  type Credential = NonNullable<Awaited<ReturnType<ReturnType<typeof credentialQuery>['executeTakeFirst']>>>
  // Built once (src/db/prepared.ts): every signed request runs it.
  const credential = prepared<Credential>(credentialQuery(SLOT, SLOT))

  return {
    ...crudRepository(db, 'users', USER_ORDER),
    /**
     * The credential lookup of every signed request: one indexed query by the account code the key
     * starts with and the key itself, before any account is known.
     */
    async findCredential (accountCode: string, apiKey: string): Promise<Credential | undefined> {
      // Cached in-process; a rotation, a role change or a deletion is a write to the user, which the bus announces.
      const cache = readCacheFor(db, db)
      if (cache === undefined) return await credential.first(db, accountCode, apiKey)
      const key = `credential\u0000${apiKey}`
      const cached = cache.get(key) as Credential | undefined
      if (cached !== undefined) return cached
      const epoch = cache.epoch
      const row = await credential.first(db, accountCode, apiKey)
      if (row !== undefined) cache.set(key, epoch, { accountId: row.accountId, table: 'users', id: row.userId, value: row })
      return row
    },
    /** A user with its account's code and name (`GET /v2/users/me`). */
    async findWithAccount (accountId: string, userId: string): Promise<(UserRow & { account_code: string, account_name: string }) | undefined> {
      return await db.selectFrom('users').innerJoin('accounts', 'accounts.id', 'users.account_id').selectAll('users')
        .select(['accounts.code as account_code', 'accounts.name as account_name'])
        .where('users.account_id', '=', accountId).where('users.id', '=', userId).executeTakeFirst()
    },
    async countAdministrators (accountId: string, trx: Kysely<DB> = db): Promise<number> {
      const row = await trx.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId).where('role', '=', 'administrator').executeTakeFirstOrThrow()
      return Number(row.n)
    }
  }
}

export type UsersRepository = ReturnType<typeof createUsersRepository>
