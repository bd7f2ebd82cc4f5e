import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { pageParams, type PageParams, type PageTokens } from '../../../paging/index.ts'
import * as S from '../syndications-schemas.ts'
import type { FeedService } from './feed-service.ts'
import { RSS_CONTENT_TYPE } from './feed-xml.ts'

/** Feeds page by 20 unless `limit` says otherwise, as the API family's feeds do. */
export const FEED_DEFAULT_LIMIT = 20

/**
 * `GET /v2/syndications/:syndication_id/feed`: public (no signature); access keys instead when required.
 * Its links start with `publicUrl`, never with the request's Host: a caller must not choose the host a
 * feed (or a cache that keeps it) sends readers to.
 */
export const feedRoutes: FastifyPluginAsyncTypebox<{ feeds: FeedService, pageTokens: PageTokens, publicUrl: string }> = async (app, { feeds, pageTokens, publicUrl }) => {
  app.get('/v2/syndications/:syndication_id/feed', {
    config: { public: true },
    schema: {
      operationId: 'getSyndicationFeed',
      summary: 'Read a syndication\'s feed (public)',
      description: 'The feed as RSS 2.0 with Media RSS (and iTunes tags for itunes): the account\'s live assets the syndication includes, newest first, ' +
        '20 per page unless `limit` says otherwise; the next page is the `atom:link rel="next"`. Unsigned: `pcode` names the account, and `access_key` ' +
        'is needed when the syndication requires one (401 without, 403 with a key that is not valid).',
      tags: ['syndications'],
      params: S.SyndicationParams,
      querystring: S.FeedQuery,
      response: { 200: S.FeedResponse, ...S.FeedErrors }
    }
  }, async (req, reply) => {
    const { syndication_id: syndicationId } = req.params
    const query = req.query
    return await reply.type(RSS_CONTENT_TYPE).send(await feeds.render({
      syndicationId,
      pcode: query.pcode,
      accessKey: query.access_key,
      page: feedPage(req, query.limit, pageTokens),
      origin: publicUrl,
      url: req.url
    }))
  })
}

function feedPage (req: FastifyRequest, limit: string | undefined, tokens: PageTokens): PageParams {
  const page = pageParams(req, tokens)
  return limit !== undefined ? page : { ...page, limit: FEED_DEFAULT_LIMIT }
}
