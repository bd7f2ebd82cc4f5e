import { apiTime } from '../../lib/clock.ts'
import type { PublishingRuleRow } from './publishing-rules-repository.ts'
import type { ApiPublishingRule } from './publishing-rules-schemas.ts'
import { settingsOf } from './publishing-rules-input.ts'

/** The one mapping from a publishing_rules row to its API shape. */
export function toApiPublishingRule (row: PublishingRuleRow): ApiPublishingRule {
  return {
    id: row.id,
    ...settingsOf(row),
    created_at: apiTime(row.created_at) as string,
    updated_at: apiTime(row.updated_at) as string
  }
}
