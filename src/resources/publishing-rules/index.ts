/** Publishing rules: their routes and service; the rule shape assets show. */
export { publishingRulesRoutes } from './publishing-rules-routes.ts'
export { createPublishingRulesService } from './publishing-rules-service.ts'
export { createPublishingRulesRepository } from './publishing-rules-repository.ts'
export { toApiPublishingRule } from './publishing-rules-format.ts'
export { PublishingRule, type ApiPublishingRule } from './publishing-rules-schemas.ts'
export { settingsOf as ruleRestrictions } from './publishing-rules-input.ts'
