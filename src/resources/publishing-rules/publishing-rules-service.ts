import type { Caller } from '../../auth/caller.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import type { Database } from '../../db/index.ts'
import { ApiError } from '../../errors/api-error.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { hexId } from '../../lib/ids.ts'
import { toPage, type Page, type PageParams } from '../../paging/index.ts'
import { BY_CREATION, positionIn } from '../kit/crud-repository.ts'
import { finder } from '../kit/finder.ts'
import { basisOf, type WriteMode } from '../kit/write-mode.ts'
import { toApiPublishingRule } from './publishing-rules-format.ts'
import { createPublishingRulesRepository, type PublishingRuleRow } from './publishing-rules-repository.ts'
import type { ApiPublishingRule, RuleInput } from './publishing-rules-schemas.ts'
import { applyInput, RULE_DEFAULTS, settingsOf, toColumns } from './publishing-rules-input.ts'

export interface PublishingRulesDeps {
  database: Database
  clock: Clock
}

/**
 * Publishing rules. Every write holds the account's lock, so a PATCH (read, merge, write) never loses a
 * concurrent one. Rules have no search document.
 */
export function createPublishingRulesService ({ database, clock }: PublishingRulesDeps) {
  const rules = createPublishingRulesRepository(database.db)
  const find = finder(rules, (id) => new ApiError('publishing_rule_not_found', `Publishing rule ${id} does not exist.`))
  const position = positionIn<PublishingRuleRow>(BY_CREATION)

  return {
    async list (caller: Caller, page: PageParams): Promise<Page<ApiPublishingRule>> {
      return toPage(await rules.page(caller.accountId, page), page, position, toApiPublishingRule)
    },
    async get (caller: Caller, id: string): Promise<ApiPublishingRule> {
      return toApiPublishingRule(await find(caller.accountId, id))
    },
    /** POST: the defaults with the given fields applied (`name` is required by the schema). */
    async create (caller: Caller, input: RuleInput): Promise<ApiPublishingRule> {
      const now = storedTime(clock.now())
      const row: PublishingRuleRow = { id: hexId(), account_id: caller.accountId, ...toColumns(applyInput(RULE_DEFAULTS, input)), created_at: now, updated_at: now }
      return await withAccountLock(database, caller.accountId, async (trx) => {
        await rules.insert(caller.accountId, row, trx)
        return toApiPublishingRule(row)
      })
    },
    async update (caller: Caller, id: string, input: RuleInput, mode: WriteMode): Promise<ApiPublishingRule> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller.accountId, id, trx)
        const changes = { ...toColumns(applyInput(basisOf(mode, settingsOf(before), RULE_DEFAULTS), input)), updated_at: storedTime(clock.now()) }
        await rules.update(caller.accountId, before.id, changes, trx)
        return toApiPublishingRule({ ...before, ...changes })
      })
    },
    async remove (caller: Caller, id: string): Promise<Record<string, never>> {
      await withAccountLock(database, caller.accountId, async (trx) => {
        await rules.delete(caller.accountId, (await find(caller.accountId, id, trx)).id, trx)
      })
      return {}
    }
  }
}

export type PublishingRulesService = ReturnType<typeof createPublishingRulesService>
