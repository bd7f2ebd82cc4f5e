import type { FastifyPluginAsync } from 'fastify'
import { callerOf } from '../../http/request-types.ts'
import type { PageTokens } from '../../paging/index.ts'
import { parts, SignedOnly, type ResourceRoutes } from '../../resources/kit/crud-routes.ts'
import { ASSET_ID_DOC, AssetErrors, AssetParams } from '../../resources/assets/index.ts'
import type { AssetMediaService } from './asset-media-service.ts'
import { Streams } from './streams-schemas.ts'

/** `GET /v2/assets/:asset_id/streams`: each rendition's state while processing, and once done. */
export const assetStreamsRoutes: FastifyPluginAsync<{ assetMedia: AssetMediaService, pageTokens: PageTokens }> = async (app, { assetMedia, pageTokens }) => {
  const routes: ResourceRoutes = {
    path: '/v2/assets', id: 'asset_id', area: 'assets', tag: 'assets', noun: { one: 'asset', many: 'assets' }, idDoc: ASSET_ID_DOC, errors: AssetErrors, pageTokens
  }
  const { read, one, errors, tags } = parts(routes)
  app.get(`${one.path}/streams`, {
    config: read,
    schema: {
      operationId: 'listAssetStreams',
      summary: 'List an uploaded asset\'s streams',
      description: 'The HLS renditions of a video, audio or ad asset, lowest first, each with its state: while processing, those being made ' +
        '(the asset is playable once the first is ready, and the master playlist gains the others as they finish); afterwards, those served. ' +
        'Empty for an asset not yet processed and for other types.',
      tags,
      params: AssetParams,
      querystring: SignedOnly,
      response: { 200: Streams, ...errors }
    }
  }, async (req) => await assetMedia.streams(callerOf(req), one.idOf(req)))
}
