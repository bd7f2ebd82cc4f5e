import type { Kysely } from 'kysely'
import { preparedFindById } from '../db/prepared.ts'
import type { DB } from '../db/schema.ts'
import { afterPosition, type KeyColumn, type PageParams } from '../paging/index.ts'

export interface PublishingRulesTable {
  id: string
  account_id: string
  name: string
  /** JSON, as text. */
  allowed_devices: string
  time_restrictions: string
  domain_restrictions: string
  geographic_restrictions: string
  created_at: string
  updated_at: string
}

declare module '../db/schema.ts' {
  interface DB { publishing_rules: PublishingRulesTable }
}

export type PublishingRuleRow = PublishingRulesTable
export type PublishingRuleColumns = Omit<PublishingRuleRow, 'id' | 'account_id' | 'created_at' | 'updated_at'>

const RULE_ORDER: KeyColumn[] = [{ column: 'created_at', direction: 'asc' }, { column: 'id', direction: 'asc' }]

/** Publishing rules of one account. Every function takes the account id first and filters on it. */
export function createPublishingRulesRepository (db: Kysely<DB>) {
  const byId = preparedFindById<PublishingRuleRow>(db, 'publishing_rules')
  return {
    async find (accountId: string, ruleId: string, trx: Kysely<DB> = db): Promise<PublishingRuleRow | undefined> {
      return await byId.first(trx, accountId, ruleId)
    },
    /** `limit + 1` rows after the page position, oldest first. */
    async page (accountId: string, page: PageParams): Promise<PublishingRuleRow[]> {
      let query = db.selectFrom('publishing_rules').selectAll().where('account_id', '=', accountId)
      if (page.after !== undefined) {
        const after = page.after
        query = query.where((eb) => afterPosition(eb, RULE_ORDER, after))
      }
      return await query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(page.limit + 1).execute()
    },
    async insert (accountId: string, row: Omit<PublishingRuleRow, 'account_id'>, trx: Kysely<DB> = db): Promise<void> {
      await trx.insertInto('publishing_rules').values({ ...row, account_id: accountId }).execute()
    },
    async update (accountId: string, ruleId: string, changes: Partial<PublishingRuleColumns> & { updated_at: string }, trx: Kysely<DB> = db): Promise<void> {
      await trx.updateTable('publishing_rules').set(changes).where('account_id', '=', accountId).where('id', '=', ruleId).execute()
    },
    async delete (accountId: string, ruleId: string, trx: Kysely<DB> = db): Promise<void> {
      await trx.deleteFrom('publishing_rules').where('account_id', '=', accountId).where('id', '=', ruleId).execute()
    }
  }
}

export type PublishingRulesRepository = ReturnType<typeof createPublishingRulesRepository>
