import type { Kysely } from 'kysely'
import type { AccountsTable, DB } from '../../db/tables/index.ts'

export type AccountRow = AccountsTable

/** Accounts are the tenants: these are the only queries not scoped by an account id. */
export function createAccountsRepository (db: Kysely<DB>) {
  return {
    async count (trx: Kysely<DB> = db): Promise<number> {
      const row = await trx.selectFrom('accounts').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async findById (accountId: string): Promise<AccountRow | undefined> {
      return await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst()
    },
    async findByCode (code: string): Promise<AccountRow | undefined> {
      return await db.selectFrom('accounts').selectAll().where('code', '=', code).executeTakeFirst()
    },
    async insert (row: AccountRow, trx: Kysely<DB> = db): Promise<void> {
      await trx.insertInto('accounts').values(row).execute()
    },
    /** The account's own allowance (null: the server's CREDITS_PER_MINUTE); false when there is no such account. */
    async setCreditsPerMinute (accountId: string, creditsPerMinute: number | null): Promise<boolean> {
      const result = await db.updateTable('accounts').set({ credits_per_minute: creditsPerMinute }).where('id', '=', accountId).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    }
  }
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>
