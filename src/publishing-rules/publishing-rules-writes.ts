import type { Kysely } from 'kysely'
import type { AppContext } from '../app/context.ts'
import { lockAccount } from '../db/lock.ts'
import type { DB } from '../db/schema.ts'
import { storedTime } from '../lib/clock.ts'
import { hexId } from '../lib/ids.ts'
import { toColumns, type RuleSettings } from './publishing-rules-fields.ts'
import type { PublishingRuleRow, PublishingRulesRepository } from './publishing-rules-repository.ts'

export type PublishingRulesContext = Pick<AppContext, 'db' | 'database' | 'clock'> & { publishingRules: PublishingRulesRepository }

/**
 * The write path of publishing rules: every change goes through `inRuleTransaction` and one of the three
 * functions below. The transaction holds the account's write lock, so a PATCH (read, merge, write) never
 * loses a concurrent one. The search issue records its outbox entries inside these functions.
 */
export async function inRuleTransaction<T> (ctx: PublishingRulesContext, accountId: string, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, ctx.database.dialect, accountId)
    return await work(trx)
  })
}

export async function createRuleIn (ctx: PublishingRulesContext, trx: Kysely<DB>, accountId: string, settings: RuleSettings): Promise<PublishingRuleRow> {
  const now = storedTime(ctx.clock.now())
  const row: PublishingRuleRow = { id: hexId(), account_id: accountId, ...toColumns(settings), created_at: now, updated_at: now }
  await ctx.publishingRules.insert(accountId, row, trx)
  return row
}

export async function updateRuleIn (ctx: PublishingRulesContext, trx: Kysely<DB>, accountId: string, before: PublishingRuleRow, settings: RuleSettings): Promise<PublishingRuleRow> {
  const changes = { ...toColumns(settings), updated_at: storedTime(ctx.clock.now()) }
  await ctx.publishingRules.update(accountId, before.id, changes, trx)
  return { ...before, ...changes }
}

export async function deleteRuleIn (ctx: PublishingRulesContext, trx: Kysely<DB>, accountId: string, rule: PublishingRuleRow): Promise<void> {
  await ctx.publishingRules.delete(accountId, rule.id, trx)
}
