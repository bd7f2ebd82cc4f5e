import type { Kysely } from 'kysely'
import { prepared, preparedFindById, SLOT } from '../db/prepared.ts'
import type { DB, UsersTable } from '../db/schema.ts'
import { afterPosition, type PageParams } from '../paging/index.ts'

export type UserRow = UsersTable

/** Users of one account. Every function takes the account id first and filters on it. */
export function createUsersRepository (db: Kysely<DB>) {
  const credentialQuery = (accountCode: string, apiKey: string) => db.selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id as userId', 'users.account_id as accountId', 'users.role', 'users.secret_enc', 'accounts.code as accountCode'])
    .where('accounts.code', '=', accountCode)
    .where('users.api_key', '=', apiKey)
  type Credential = NonNullable<Awaited<ReturnType<ReturnType<typeof credentialQuery>['executeTakeFirst']>>>
  // Built once (src/db/prepared.ts): every signed request runs the credential lookup, every user GET the other.
  const credential = prepared<Credential>(credentialQuery(SLOT, SLOT))
  const byId = preparedFindById<UserRow>(db, 'users')

  return {
    /** The credential lookup of every signed request: one indexed query, account first. */
    async findCredential (accountCode: string, apiKey: string): Promise<Credential | undefined> {
      return await credential.first(db, accountCode, apiKey)
    },
    async find (accountId: string, userId: string, trx: Kysely<DB> = db): Promise<UserRow | undefined> {
      return await byId.first(trx, accountId, userId)
    },
    /** `limit + 1` rows after the page position, ordered by id. */
    async page (accountId: string, page: PageParams): Promise<UserRow[]> {
      let query = db.selectFrom('users').selectAll().where('account_id', '=', accountId)
      if (page.after !== undefined) {
        const after = page.after
        query = query.where((eb) => afterPosition(eb, [{ column: 'id', direction: 'asc' }], after))
      }
      return await query.orderBy('id', 'asc').limit(page.limit + 1).execute()
    },
    async countAdministrators (accountId: string, trx: Kysely<DB> = db): Promise<number> {
      const row = await trx.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId).where('role', '=', 'administrator').executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async insert (accountId: string, row: Omit<UserRow, 'account_id'>, trx: Kysely<DB> = db): Promise<void> {
      await trx.insertInto('users').values({ ...row, account_id: accountId }).execute()
    },
    async update (accountId: string, userId: string, changes: Partial<Pick<UserRow, 'name' | 'role' | 'secret_enc' | 'updated_at'>>, trx: Kysely<DB> = db): Promise<void> {
      await trx.updateTable('users').set(changes).where('account_id', '=', accountId).where('id', '=', userId).execute()
    },
    async delete (accountId: string, userId: string, trx: Kysely<DB> = db): Promise<void> {
      await trx.deleteFrom('users').where('account_id', '=', accountId).where('id', '=', userId).execute()
    }
  }
}

export type UsersRepository = ReturnType<typeof createUsersRepository>
