import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { TSchema } from 'typebox'
import { callerOf } from '../../../http/request-types.ts'
import { Empty } from '../../../http/schemas.ts'
import type { PageTokens } from '../../../paging/index.ts'
import { parts, registerMetadataRoutes, SignedOnly, type ResourceRoutes } from '../../kit/crud-routes.ts'
import * as S from '../assets-schemas.ts'
import type { PartsService } from './parts-service.ts'

/** The sub-resources of an asset: `metadata`, `labels`, `player`, `publishing_rule`. */
export const assetPartsRoutes: FastifyPluginAsyncTypebox<{ assetParts: PartsService, pageTokens: PageTokens }> = async (app, { assetParts, pageTokens }) => {
  const routes: ResourceRoutes = {
    path: '/v2/assets', id: 'asset_id', area: 'assets', tag: 'assets', noun: { one: 'asset', many: 'assets' }, idDoc: S.ASSET_ID_DOC, errors: S.AssetErrors, pageTokens
  }
  const { read, write, one, errors, tags } = parts(routes)
  const sub = <P extends TSchema>(name: string, params: P) => ({ path: `${one.path}/${name}`, schema: { tags, params, querystring: SignedOnly } })
  const doc = (operationId: string, summary: string, description: string) => ({ operationId, summary, description })

  registerMetadataRoutes(app, routes, assetParts)

  const labels = sub('labels', S.AssetParams)
  const label = sub('labels/:label_id', S.AssetLabelParams)
  const LABELS_ANSWER = 'Answers all the asset\'s labels.'
  app.get(labels.path, {
    config: read,
    schema: { ...doc('listAssetLabels', 'List an asset\'s labels', 'Answers the asset\'s labels by full name, all at once (not paged).'), ...labels.schema, response: { 200: S.LabelList, ...errors } }
  }, async (req) => await assetParts.getLabels(callerOf(req), one.idOf(req)))
  app.post(labels.path, {
    config: write,
    schema: { ...doc('addAssetLabels', 'Add labels to an asset', `Adds the labels whose ids the body lists (at most 500). ${LABELS_ANSWER}`), ...labels.schema, body: S.LabelIdsBody, response: { 200: S.LabelList, ...errors } }
  }, async (req) => await assetParts.writeLabels(callerOf(req), one.idOf(req), req.body, 'merge'))
  app.put(labels.path, {
    config: write,
    schema: { ...doc('replaceAssetLabels', 'Replace an asset\'s labels', `Gives the asset exactly the labels whose ids the body lists (at most 500). ${LABELS_ANSWER}`), ...labels.schema, body: S.LabelIdsBody, response: { 200: S.LabelList, ...errors } }
  }, async (req) => await assetParts.writeLabels(callerOf(req), one.idOf(req), req.body, 'replace'))
  app.delete(labels.path, {
    config: write,
    schema: { ...doc('removeAssetLabels', 'Remove all of an asset\'s labels', 'Takes every label off the asset and answers `{}`.'), ...labels.schema, response: { 200: Empty, ...errors } }
  }, async (req) => await assetParts.removeLabels(callerOf(req), one.idOf(req), undefined))
  app.put(label.path, {
    config: write,
    schema: { ...doc('addAssetLabel', 'Add one label to an asset', `Adds the label; the body is empty or \`{}\`. ${LABELS_ANSWER}`), ...label.schema, body: S.NoBody, response: { 200: S.LabelList, ...errors } }
  }, async (req) => await assetParts.writeLabels(callerOf(req), one.idOf(req), [req.params.label_id], 'merge'))
  app.delete(label.path, {
    config: write,
    schema: { ...doc('removeAssetLabel', 'Remove one label from an asset', 'Takes the label off the asset (nothing happens if the asset does not carry it) and answers `{}`.'), ...label.schema, response: { 200: Empty, ...errors } }
  }, async (req) => await assetParts.removeLabels(callerOf(req), one.idOf(req), req.params.label_id))

  // The player and the publishing rule are read through the asset, but they are players and rules:
  // a role must be allowed those too (upload_only is not; docs/api.md, "Roles").
  const readPlayer = { permission: [read.permission, ['players', 'read']] as const }
  const writePlayer = { permission: [write.permission, ['players', 'read']] as const }
  const readRule = { permission: [read.permission, ['publishing_rules', 'read']] as const }
  const writeRule = { permission: [write.permission, ['publishing_rules', 'read']] as const }

  const player = sub('player', S.AssetParams)
  const setPlayer = sub('player/:player_id', S.AssetPlayerParams)
  app.get(player.path, {
    config: readPlayer,
    schema: { ...doc('getAssetPlayer', 'Get an asset\'s player', 'Answers the player that plays the asset: its own, else the account\'s default player; 404 when there is neither.'), ...player.schema, response: { 200: S.Player, ...errors } }
  }, async (req) => await assetParts.getPlayer(callerOf(req), one.idOf(req)))
  app.put(setPlayer.path, {
    config: writePlayer,
    schema: { ...doc('setAssetPlayer', 'Set an asset\'s player', 'Makes the player the asset\'s own and answers it; the body is empty or `{}`.'), ...setPlayer.schema, body: S.NoBody, response: { 200: S.Player, ...errors } }
  }, async (req) => await assetParts.setPlayer(callerOf(req), one.idOf(req), req.params.player_id))

  const rule = sub('publishing_rule', S.AssetParams)
  const setRule = sub('publishing_rule/:publishing_rule_id', S.AssetRuleParams)
  app.get(rule.path, {
    config: readRule,
    schema: { ...doc('getAssetPublishingRule', 'Get an asset\'s publishing rule', 'Answers the asset\'s publishing rule; 404 when it has none.'), ...rule.schema, response: { 200: S.PublishingRule, ...errors } }
  }, async (req) => await assetParts.getPublishingRule(callerOf(req), one.idOf(req)))
  app.put(setRule.path, {
    config: writeRule,
    schema: { ...doc('setAssetPublishingRule', 'Set an asset\'s publishing rule', 'Gives the asset the publishing rule and answers it; the body is empty or `{}`.'), ...setRule.schema, body: S.NoBody, response: { 200: S.PublishingRule, ...errors } }
  }, async (req) => await assetParts.setPublishingRule(callerOf(req), one.idOf(req), req.params.publishing_rule_id))
  app.delete(rule.path, {
    config: writeRule,
    schema: { ...doc('removeAssetPublishingRule', 'Remove an asset\'s publishing rule', 'Leaves the asset without a publishing rule and answers `{}`.'), ...rule.schema, response: { 200: Empty, ...errors } }
  }, async (req) => await assetParts.removePublishingRule(callerOf(req), one.idOf(req)))
}
