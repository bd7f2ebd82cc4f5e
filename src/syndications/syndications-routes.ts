import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../app/context.ts'
import { authOf } from '../http/request-types.ts'
import { pageParams } from '../paging/index.ts'
import { feedRoutes } from './feed/feed-routes.ts'
import { createSyndicationsContext } from './syndications-context.ts'
import * as S from './syndications-schemas.ts'
import * as syndications from './syndications-service.ts'

/** `/v2/syndications` (product.md §8) with access keys; the public feed is in `feed/`. */
export const syndicationsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const sctx = createSyndicationsContext(ctx)
  const read = { permission: ['syndications', 'read'] as const }
  const write = { permission: ['syndications', 'write'] as const }
  const tags = ['syndications']
  const one = { tags, params: S.SyndicationParams, querystring: S.SyndicationQuery }

  app.get('/v2/syndications', {
    config: read,
    schema: { tags, querystring: S.SyndicationsQuery, response: { 200: S.SyndicationsPage, ...S.SyndicationErrors } }
  }, async (req) => await syndications.listSyndications(sctx, authOf(req), pageParams(req, ctx.pageTokens)))

  app.post('/v2/syndications', {
    config: write,
    schema: { tags, querystring: S.SyndicationQuery, body: S.CreateSyndicationBody, response: { 200: S.Syndication, ...S.SyndicationErrors } }
  }, async (req) => await syndications.createSyndication(sctx, authOf(req), req.body))

  app.get('/v2/syndications/:syndication_id', { config: read, schema: { ...one, response: { 200: S.Syndication, ...S.SyndicationErrors } } },
    async (req) => await syndications.getSyndication(sctx, authOf(req), req.params.syndication_id))

  app.patch('/v2/syndications/:syndication_id', { config: write, schema: { ...one, body: S.UpdateSyndicationBody, response: { 200: S.Syndication, ...S.SyndicationErrors } } },
    async (req) => await syndications.updateSyndication(sctx, authOf(req), req.params.syndication_id, req.body, 'patch'))

  app.put('/v2/syndications/:syndication_id', { config: write, schema: { ...one, body: S.ReplaceSyndicationBody, response: { 200: S.Syndication, ...S.SyndicationErrors } } },
    async (req) => await syndications.updateSyndication(sctx, authOf(req), req.params.syndication_id, req.body, 'replace'))

  app.delete('/v2/syndications/:syndication_id', { config: write, schema: { ...one, response: { 200: S.Empty, ...S.SyndicationErrors } } },
    async (req) => await syndications.deleteSyndication(sctx, authOf(req), req.params.syndication_id))

  app.get('/v2/syndications/:syndication_id/access_keys', { config: read, schema: { ...one, response: { 200: S.AccessKeyList, ...S.SyndicationErrors } } },
    async (req) => await syndications.listAccessKeys(sctx, authOf(req), req.params.syndication_id))

  app.post('/v2/syndications/:syndication_id/access_keys', { config: write, schema: { ...one, body: S.NoBody, response: { 200: S.AccessKey, ...S.SyndicationErrors } } },
    async (req) => await syndications.createAccessKey(sctx, authOf(req), req.params.syndication_id))

  app.delete('/v2/syndications/:syndication_id/access_keys/:access_key', {
    config: write,
    schema: { tags, params: S.AccessKeyParams, querystring: S.SyndicationQuery, response: { 200: S.Empty, ...S.SyndicationErrors } }
  }, async (req) => await syndications.deleteAccessKey(sctx, authOf(req), req.params.syndication_id, req.params.access_key))

  await app.register(feedRoutes, { sctx })
}
