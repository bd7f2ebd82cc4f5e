import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { pageParams, type PageTokens } from '../../../paging/index.ts'
import * as S from '../syndications-schemas.ts'
import type { FeedService } from './feed-service.ts'

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
      description: 'The feed of the account\'s live assets the syndication includes, newest first, in the form its type names: RSS 2.0 with Media RSS ' +
        '(iTunes tags for itunes; the fields YouTube\'s feed ingestion requires for youtube), 20 items per page unless `limit` says otherwise, the next page being ' +
        'the `atom:link rel="next"`; Roku\'s JSON content feed (Direct Publisher specification, revision of 2017-05-02) for roku and a Google video sitemap for google, ' +
        'each one document of the newest 500 unless `limit` says otherwise. Unsigned: `pcode` names the account, and `access_key` ' +
        'is needed when the syndication requires one (401 without, 403 with a key that is not valid).',
      tags: ['syndications'],
      params: S.SyndicationParams,
      querystring: S.FeedQuery,
      response: { 200: S.FeedResponse, ...S.FeedErrors }
    }
  }, async (req, reply) => {
    const { syndication_id: syndicationId } = req.params
    const query = req.query
    const feed = await feeds.render({
      syndicationId,
      pcode: query.pcode,
      accessKey: query.access_key,
      page: pageParams(req, pageTokens),
      limitGiven: query.limit !== undefined,
      origin: publicUrl,
      url: req.url
    })
    return await reply.type(feed.contentType).send(feed.body)
  })
}
