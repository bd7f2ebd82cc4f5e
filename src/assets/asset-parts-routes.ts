import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authOf } from '../http/request-types.ts'
import * as links from './asset-links-service.ts'
import * as metadata from './asset-metadata-service.ts'
import type { AssetsContext } from './assets-context.ts'
import * as S from './assets-schemas.ts'

/** The sub-resources of an asset: `metadata`, `labels`, `player`, `publishing_rule` (product.md §8). */
export const assetPartsRoutes: FastifyPluginAsyncTypebox<{ actx: AssetsContext }> = async (app, { actx }) => {
  const read = { permission: ['assets', 'read'] as const }
  const write = { permission: ['assets', 'write'] as const }
  const tags = ['assets']
  const one = { tags, params: S.AssetParams, querystring: S.SignedOnlyQuery }

  app.get('/v2/assets/:asset_id/metadata', { config: read, schema: { ...one, response: { 200: S.Metadata, ...S.AssetErrors } } },
    async (req) => await metadata.getMetadata(actx, authOf(req), req.params.asset_id))
  app.put('/v2/assets/:asset_id/metadata', { config: write, schema: { ...one, body: S.MetadataBody, response: { 200: S.Metadata, ...S.AssetErrors } } },
    async (req) => await metadata.replaceMetadata(actx, authOf(req), req.params.asset_id, req.body))
  app.patch('/v2/assets/:asset_id/metadata', { config: write, schema: { ...one, body: S.MetadataPatchBody, response: { 200: S.Metadata, ...S.AssetErrors } } },
    async (req) => await metadata.mergeMetadata(actx, authOf(req), req.params.asset_id, req.body))
  app.delete('/v2/assets/:asset_id/metadata', { config: write, schema: { ...one, response: { 200: S.Empty, ...S.AssetErrors } } },
    async (req) => await metadata.deleteMetadata(actx, authOf(req), req.params.asset_id))

  const oneLabel = { tags, params: S.AssetLabelParams, querystring: S.SignedOnlyQuery }
  app.get('/v2/assets/:asset_id/labels', { config: read, schema: { ...one, response: { 200: S.LabelList, ...S.AssetErrors } } },
    async (req) => await links.getLabels(actx, authOf(req), req.params.asset_id))
  app.post('/v2/assets/:asset_id/labels', { config: write, schema: { ...one, body: S.LabelIdsBody, response: { 200: S.LabelList, ...S.AssetErrors } } },
    async (req) => await links.addLabels(actx, authOf(req), req.params.asset_id, req.body, 'add'))
  app.put('/v2/assets/:asset_id/labels', { config: write, schema: { ...one, body: S.LabelIdsBody, response: { 200: S.LabelList, ...S.AssetErrors } } },
    async (req) => await links.addLabels(actx, authOf(req), req.params.asset_id, req.body, 'replace'))
  app.delete('/v2/assets/:asset_id/labels', { config: write, schema: { ...one, response: { 200: S.Empty, ...S.AssetErrors } } },
    async (req) => await links.removeLabels(actx, authOf(req), req.params.asset_id, undefined))
  app.put('/v2/assets/:asset_id/labels/:label_id', { config: write, schema: { ...oneLabel, body: S.NoBody, response: { 200: S.LabelList, ...S.AssetErrors } } },
    async (req) => await links.addLabels(actx, authOf(req), req.params.asset_id, [req.params.label_id], 'add'))
  app.delete('/v2/assets/:asset_id/labels/:label_id', { config: write, schema: { ...oneLabel, response: { 200: S.Empty, ...S.AssetErrors } } },
    async (req) => await links.removeLabels(actx, authOf(req), req.params.asset_id, req.params.label_id))

  app.get('/v2/assets/:asset_id/player', { config: read, schema: { ...one, response: { 200: S.Player, ...S.AssetErrors } } },
    async (req) => await links.getPlayer(actx, authOf(req), req.params.asset_id))
  app.put('/v2/assets/:asset_id/player/:player_id', {
    config: write,
    schema: { tags, params: S.AssetPlayerParams, querystring: S.SignedOnlyQuery, body: S.NoBody, response: { 200: S.Player, ...S.AssetErrors } }
  }, async (req) => await links.setPlayer(actx, authOf(req), req.params.asset_id, req.params.player_id))

  app.get('/v2/assets/:asset_id/publishing_rule', { config: read, schema: { ...one, response: { 200: S.PublishingRule, ...S.AssetErrors } } },
    async (req) => await links.getPublishingRule(actx, authOf(req), req.params.asset_id))
  app.put('/v2/assets/:asset_id/publishing_rule/:publishing_rule_id', {
    config: write,
    schema: { tags, params: S.AssetRuleParams, querystring: S.SignedOnlyQuery, body: S.NoBody, response: { 200: S.PublishingRule, ...S.AssetErrors } }
  }, async (req) => await links.setPublishingRule(actx, authOf(req), req.params.asset_id, req.params.publishing_rule_id))
  app.delete('/v2/assets/:asset_id/publishing_rule', { config: write, schema: { ...one, response: { 200: S.Empty, ...S.AssetErrors } } },
    async (req) => await links.removePublishingRule(actx, authOf(req), req.params.asset_id))
}
