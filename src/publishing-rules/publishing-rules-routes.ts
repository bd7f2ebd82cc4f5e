import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../app/context.ts'
import { authOf } from '../http/request-types.ts'
import { pageParams } from '../paging/index.ts'
import { createPublishingRulesRepository } from './publishing-rules-repository.ts'
import * as S from './publishing-rules-schemas.ts'
import * as rules from './publishing-rules-service.ts'
import type { PublishingRulesContext } from './publishing-rules-writes.ts'

/** `/v2/publishing_rules` (product.md §8). */
export const publishingRulesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const rctx: PublishingRulesContext = { db: ctx.db, database: ctx.database, clock: ctx.clock, publishingRules: createPublishingRulesRepository(ctx.db) }
  const read = { permission: ['publishing_rules', 'read'] as const }
  const write = { permission: ['publishing_rules', 'write'] as const }
  const tags = ['publishing rules']
  const one = { tags, params: S.RuleParams, querystring: S.RuleQuery }

  app.get('/v2/publishing_rules', {
    config: read,
    schema: { tags, querystring: S.RulesQuery, response: { 200: S.RulesPage, ...S.RuleErrors } }
  }, async (req) => await rules.listRules(rctx, authOf(req).accountId, pageParams(req, ctx.pageTokens)))

  app.post('/v2/publishing_rules', {
    config: write,
    schema: { tags, querystring: S.RuleQuery, body: S.CreateRuleBody, response: { 200: S.PublishingRule, ...S.RuleErrors } }
  }, async (req) => await rules.createRule(rctx, authOf(req).accountId, req.body))

  app.get('/v2/publishing_rules/:publishing_rule_id', {
    config: read,
    schema: { ...one, response: { 200: S.PublishingRule, ...S.RuleErrors } }
  }, async (req) => await rules.getRule(rctx, authOf(req).accountId, req.params.publishing_rule_id))

  app.patch('/v2/publishing_rules/:publishing_rule_id', {
    config: write,
    schema: { ...one, body: S.UpdateRuleBody, response: { 200: S.PublishingRule, ...S.RuleErrors } }
  }, async (req) => await rules.updateRule(rctx, authOf(req).accountId, req.params.publishing_rule_id, req.body))

  app.put('/v2/publishing_rules/:publishing_rule_id', {
    config: write,
    schema: { ...one, body: S.ReplaceRuleBody, response: { 200: S.PublishingRule, ...S.RuleErrors } }
  }, async (req) => await rules.replaceRule(rctx, authOf(req).accountId, req.params.publishing_rule_id, req.body))

  app.delete('/v2/publishing_rules/:publishing_rule_id', {
    config: write,
    schema: { ...one, response: { 200: S.Empty, ...S.RuleErrors } }
  }, async (req) => await rules.deleteRule(rctx, authOf(req).accountId, req.params.publishing_rule_id))
}
