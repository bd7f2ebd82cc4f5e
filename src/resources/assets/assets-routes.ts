import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../../http/request-types.ts'
import { pageOf, PageQuery } from '../../http/schemas.ts'
import { pageParams, type PageTokens } from '../../paging/index.ts'
import { parts, registerCrudRoutes, type ResourceRoutes } from '../kit/crud-routes.ts'
import * as S from './assets-schemas.ts'
import type { AssetsService } from './assets-service.ts'

/**
 * `/v2/assets`, `/v2/deleted_assets` and `/v2/labels/:label_id/assets`. `:asset_id` is an embed code or
 * an external_id. `upload_only` callers reach only the assets they created.
 */
export const assetsRoutes: FastifyPluginAsyncTypebox<{ assets: AssetsService, pageTokens: PageTokens }> = async (app, { assets, pageTokens }) => {
  const routes: ResourceRoutes = {
    path: '/v2/assets', id: 'asset_id', area: 'assets', tag: 'assets', noun: { one: 'asset', many: 'assets' }, idDoc: S.ASSET_ID_DOC, errors: S.AssetErrors, pageTokens
  }
  const { read, errors, tags } = parts(routes)
  registerCrudRoutes(app, routes, {
    item: S.Asset,
    create: S.CreateAssetBody,
    update: S.UpdateAssetBody,
    replace: S.ReplaceAssetBody,
    listQuery: S.AssetsQuery,
    itemQuery: S.AssetQuery,
    docs: {
      order: 'newest first unless `orderby` says otherwise',
      notes: {
        list: FILTERS,
        create: 'video, audio and ad assets need `file_name` and `file_size` and start `uploading`; the other types start `live`. A taken `external_id` or `youtube_id` answers 409.',
        get: '`include` adds `metadata`, `labels` and `player`.',
        update: '`status` may only switch between `live` and `paused` (409 otherwise). `time_restrictions` and `stream_urls` merge member by member; null clears them.',
        replace: 'The embed code, type, status and `created_at` stay.',
        delete: 'The asset then appears in `GET /v2/deleted_assets`.'
      }
    }
  }, assets)

  app.get('/v2/deleted_assets', {
    config: read,
    schema: {
      operationId: 'listDeletedAssets',
      summary: 'List deleted assets',
      description: 'One page of the account\'s deleted assets, newest deletion first, paged like every list.',
      tags,
      querystring: PageQuery,
      response: { 200: pageOf(S.DeletedAsset), ...errors }
    }
  }, async (req) => await assets.listDeleted(callerOf(req), pageParams(req, pageTokens)))

  app.get('/v2/labels/:label_id/assets', {
    config: read,
    schema: {
      operationId: 'listLabelAssets',
      summary: 'List a label\'s assets',
      description: `One page of the assets that carry the label (not those of its child labels), with the query parameters of GET /v2/assets. ${FILTERS}`,
      tags: ['assets', 'labels'],
      params: S.LabelParams,
      querystring: S.AssetsQuery,
      response: { 200: pageOf(S.Asset), ...errors }
    }
  }, async (req) => await assets.listOfLabel(callerOf(req), req.params.label_id, req.query, pageParams(req, pageTokens)))
}

/** What the asset lists' own parameters do, for the API reference. */
const FILTERS = '`where` filters, e.g. `status=\'live\' AND labels INCLUDES \'Sports\'` or `metadata.sport=\'football\'` (word matches on name and description come from the search index); ' +
  '`orderby` sorts by name, duration, asset_type, created_at or updated_at, ascending or descending; `include` adds metadata, labels and player to each asset.'
