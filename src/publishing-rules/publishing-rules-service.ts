import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import { ApiError } from '../errors/api-error.ts'
import { toPage, type Page, type PageParams } from '../paging/index.ts'
import { applyInput, RULE_DEFAULTS, settingsOf, type RuleInput } from './publishing-rules-fields.ts'
import { toApiPublishingRule, type ApiPublishingRule } from './publishing-rules-format.ts'
import type { PublishingRuleRow } from './publishing-rules-repository.ts'
import { createRuleIn, deleteRuleIn, inRuleTransaction, updateRuleIn, type PublishingRulesContext } from './publishing-rules-writes.ts'

export async function listRules (ctx: PublishingRulesContext, accountId: string, page: PageParams): Promise<Page<ApiPublishingRule>> {
  const rows = await ctx.publishingRules.page(accountId, page)
  return toPage(rows, page, (row) => [row.created_at, row.id], toApiPublishingRule)
}

export async function getRule (ctx: PublishingRulesContext, accountId: string, ruleId: string): Promise<ApiPublishingRule> {
  return toApiPublishingRule(await mustFind(ctx, accountId, ruleId))
}

/** POST: the defaults with the given fields applied (`name` is required by the schema). */
export async function createRule (ctx: PublishingRulesContext, accountId: string, input: RuleInput): Promise<ApiPublishingRule> {
  const settings = applyInput(RULE_DEFAULTS, input)
  return toApiPublishingRule(await inRuleTransaction(ctx, accountId, async (trx) => await createRuleIn(ctx, trx, accountId, settings)))
}

/** PATCH changes only the fields given; PUT (`replace`) sets every other field back to its default. */
export async function updateRule (ctx: PublishingRulesContext, accountId: string, ruleId: string, input: RuleInput, replace = false): Promise<ApiPublishingRule> {
  return await inRuleTransaction(ctx, accountId, async (trx) => {
    const before = await mustFind(ctx, accountId, ruleId, trx)
    const settings = applyInput(replace ? RULE_DEFAULTS : settingsOf(before), input)
    return toApiPublishingRule(await updateRuleIn(ctx, trx, accountId, before, settings))
  })
}

export async function replaceRule (ctx: PublishingRulesContext, accountId: string, ruleId: string, input: RuleInput): Promise<ApiPublishingRule> {
  return await updateRule(ctx, accountId, ruleId, input, true)
}

export async function deleteRule (ctx: PublishingRulesContext, accountId: string, ruleId: string): Promise<Record<string, never>> {
  await inRuleTransaction(ctx, accountId, async (trx) => {
    await deleteRuleIn(ctx, trx, accountId, await mustFind(ctx, accountId, ruleId, trx))
  })
  return {}
}

async function mustFind (ctx: PublishingRulesContext, accountId: string, ruleId: string, trx: Kysely<DB> = ctx.db): Promise<PublishingRuleRow> {
  const row = await ctx.publishingRules.find(accountId, ruleId, trx)
  if (row === undefined) throw new ApiError('publishing_rule_not_found', `Publishing rule ${ruleId} does not exist.`)
  return row
}
