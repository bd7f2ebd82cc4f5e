import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { pageParams, type PageParams, type PageTokens } from '../../paging/index.ts'
import type { SyndicationsContext } from '../syndications-context.ts'
import * as S from '../syndications-schemas.ts'
import { renderFeed } from './feed-service.ts'
import { RSS_CONTENT_TYPE } from './feed-xml.ts'

/** Feeds page by 20 unless `limit` says otherwise (backlot-api.md §1.6). */
export const FEED_DEFAULT_LIMIT = 20

/** `GET /v2/syndications/:syndication_id/feed`: public (no signature); access keys instead when required. */
export const feedRoutes: FastifyPluginAsyncTypebox<{ sctx: SyndicationsContext }> = async (app, { sctx }) => {
  app.get('/v2/syndications/:syndication_id/feed', {
    config: { public: true },
    schema: { tags: ['syndications'], params: S.SyndicationParams, querystring: S.FeedQuery, response: { 200: S.FeedResponse, ...S.FeedErrors } }
  }, async (req, reply) => await reply.type(RSS_CONTENT_TYPE).send(await renderFeed(sctx, {
    syndicationId: req.params.syndication_id,
    pcode: req.query.pcode,
    accessKey: req.query.access_key,
    page: feedPage(req, sctx.pageTokens),
    origin: `${req.protocol}://${req.host}`,
    url: req.url
  })))
}

function feedPage (req: FastifyRequest, tokens: PageTokens): PageParams {
  const page = pageParams(req, tokens)
  return req.queryPairs?.some(([key]) => key === 'limit') === true ? page : { ...page, limit: FEED_DEFAULT_LIMIT }
}
