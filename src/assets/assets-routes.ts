import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../app/context.ts'
import { authOf } from '../http/request-types.ts'
import { pageParams } from '../paging/index.ts'
import { assetPartsRoutes } from './asset-parts-routes.ts'
import { createAssetsContext } from './assets-context.ts'
import * as S from './assets-schemas.ts'
import * as assets from './assets-service.ts'

/**
 * `/v2/assets`, `/v2/deleted_assets` and `/v2/labels/:label_id/assets` (product.md §8). `:asset_id` is
 * an embed code or an external_id. `upload_only` callers reach only the assets they created.
 */
export const assetsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const actx = createAssetsContext(ctx)
  const read = { permission: ['assets', 'read'] as const }
  const write = { permission: ['assets', 'write'] as const }
  const tags = ['assets']

  app.get('/v2/assets', {
    config: read,
    schema: { tags, querystring: S.AssetsQuery, response: { 200: S.AssetsPage, ...S.AssetErrors } }
  }, async (req) => await assets.listAssets(actx, authOf(req), req.query, pageParams(req, ctx.pageTokens)))

  app.post('/v2/assets', {
    config: write,
    schema: { tags, querystring: S.SignedOnlyQuery, body: S.CreateAssetBody, response: { 200: S.Asset, ...S.AssetErrors } }
  }, async (req) => await assets.createAsset(actx, authOf(req), req.body))

  app.get('/v2/assets/:asset_id', {
    config: read,
    schema: { tags, params: S.AssetParams, querystring: S.AssetQuery, response: { 200: S.Asset, ...S.AssetErrors } }
  }, async (req) => await assets.getAsset(actx, authOf(req), req.params.asset_id, req.query.include))

  app.patch('/v2/assets/:asset_id', {
    config: write,
    schema: { tags, params: S.AssetParams, querystring: S.SignedOnlyQuery, body: S.UpdateAssetBody, response: { 200: S.Asset, ...S.AssetErrors } }
  }, async (req) => await assets.updateAsset(actx, authOf(req), req.params.asset_id, req.body))

  app.put('/v2/assets/:asset_id', {
    config: write,
    schema: { tags, params: S.AssetParams, querystring: S.SignedOnlyQuery, body: S.ReplaceAssetBody, response: { 200: S.Asset, ...S.AssetErrors } }
  }, async (req) => await assets.replaceAsset(actx, authOf(req), req.params.asset_id, req.body))

  app.delete('/v2/assets/:asset_id', {
    config: write,
    schema: { tags, params: S.AssetParams, querystring: S.SignedOnlyQuery, response: { 200: S.Empty, ...S.AssetErrors } }
  }, async (req) => await assets.deleteAsset(actx, authOf(req), req.params.asset_id))

  app.get('/v2/deleted_assets', {
    config: read,
    schema: { tags, querystring: S.DeletedAssetsQuery, response: { 200: S.DeletedAssetsPage, ...S.AssetErrors } }
  }, async (req) => await assets.listDeletedAssets(actx, authOf(req), pageParams(req, ctx.pageTokens)))

  app.get('/v2/labels/:label_id/assets', {
    config: read,
    schema: { tags: ['assets', 'labels'], params: S.LabelParams, querystring: S.AssetsQuery, response: { 200: S.AssetsPage, ...S.AssetErrors } }
  }, async (req) => await assets.listLabelAssets(actx, authOf(req), req.params.label_id, req.query, pageParams(req, ctx.pageTokens)))

  await app.register(assetPartsRoutes, { actx })
}
