export { publishingRulesRoutes } from './publishing-rules-routes.ts'
export { createPublishingRulesRepository, type PublishingRulesRepository, type PublishingRuleRow, type PublishingRulesTable } from './publishing-rules-repository.ts'
export { toApiPublishingRule, type ApiPublishingRule } from './publishing-rules-format.ts'
export { PublishingRule } from './publishing-rules-schemas.ts'
