import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { PageTokens } from '../../paging/index.ts'
import { registerCrudRoutes } from '../kit/crud-routes.ts'
import * as S from './publishing-rules-schemas.ts'
import type { PublishingRulesService } from './publishing-rules-service.ts'

/** `/v2/publishing_rules`. */
export const publishingRulesRoutes: FastifyPluginAsyncTypebox<{ rules: PublishingRulesService, pageTokens: PageTokens }> = async (app, { rules, pageTokens }) => {
  registerCrudRoutes(app, {
    path: '/v2/publishing_rules',
    id: 'publishing_rule_id',
    area: 'publishing_rules',
    tag: 'publishing rules',
    noun: { one: 'publishing rule', many: 'publishing rules' },
    errors: S.RuleErrors,
    pageTokens
  }, {
    item: S.PublishingRule,
    create: S.CreateRuleBody,
    update: S.UpdateRuleBody,
    docs: {
      notes: {
        create: 'By default all four devices, an open time range and empty deny lists. `whitelist` and `blacklist` are accepted for `allow` and `deny`.',
        delete: 'Assets that used the rule lose it.'
      }
    }
  }, rules)
}
