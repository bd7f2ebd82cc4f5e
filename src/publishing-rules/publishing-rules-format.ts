import { apiTime } from '../lib/clock.ts'
import { settingsOf, type RuleSettings } from './publishing-rules-fields.ts'
import type { PublishingRuleRow } from './publishing-rules-repository.ts'

export type ApiPublishingRule = { id: string } & RuleSettings & { created_at: string, updated_at: string }

/** The one mapping from a publishing_rules row to its API shape. */
export function toApiPublishingRule (row: PublishingRuleRow): ApiPublishingRule {
  return {
    id: row.id,
    ...settingsOf(row),
    created_at: apiTime(row.created_at) as string,
    updated_at: apiTime(row.updated_at) as string
  }
}
