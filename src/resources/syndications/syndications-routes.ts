import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../../http/request-types.ts'
import { Empty } from '../../http/schemas.ts'
import type { PageTokens } from '../../paging/index.ts'
import { parts, registerCrudRoutes, SignedOnly, type ResourceRoutes } from '../kit/crud-routes.ts'
import * as S from './syndications-schemas.ts'
import type { SyndicationsService } from './syndications-service.ts'

/** `/v2/syndications` with its access keys; the public feed is in `feed/`. */
export const syndicationsRoutes: FastifyPluginAsyncTypebox<{ syndications: SyndicationsService, pageTokens: PageTokens }> = async (app, { syndications, pageTokens }) => {
  const routes: ResourceRoutes = {
    path: '/v2/syndications', id: 'syndication_id', area: 'syndications', tag: 'syndications', noun: { one: 'syndication', many: 'syndications' }, errors: S.SyndicationErrors, pageTokens
  }
  const { read, write, one, errors, tags } = parts(routes)
  registerCrudRoutes(app, routes, {
    item: S.Syndication,
    create: S.CreateSyndicationBody,
    update: S.UpdateSyndicationBody,
    docs: {
      notes: {
        create: 'The answer\'s `feed_url` is the public feed, unsigned; with `require_access_key` it needs one of the syndication\'s access keys.',
        delete: 'Its access keys go too, and its feed answers 404.'
      }
    }
  }, syndications)

  app.get(`${one.path}/access_keys`, {
    config: read,
    schema: {
      operationId: 'listSyndicationAccessKeys',
      summary: 'List a syndication\'s access keys',
      description: 'Answers the keys that open the syndication\'s feed, oldest first, all at once (not paged).',
      ...one.schema,
      response: { 200: S.AccessKeyList, ...errors }
    }
  }, async (req) => await syndications.listAccessKeys(callerOf(req), one.idOf(req)))
  app.post(`${one.path}/access_keys`, {
    config: write,
    schema: {
      operationId: 'createSyndicationAccessKey',
      summary: 'Create an access key',
      description: 'Creates a random access key for the syndication\'s feed and answers it; the body is empty or `{}`. A syndication holds at most 100 keys (409 beyond).',
      ...one.schema,
      body: S.NoBody,
      response: { 200: S.AccessKey, ...errors }
    }
  }, async (req) => await syndications.createAccessKey(callerOf(req), one.idOf(req)))
  app.delete(`${one.path}/access_keys/:access_key`, {
    config: write,
    schema: {
      operationId: 'deleteSyndicationAccessKey',
      summary: 'Delete an access key',
      description: 'Revokes the key at once and answers `{}`; an unknown key answers 404.',
      tags,
      params: S.AccessKeyParams,
      querystring: SignedOnly,
      response: { 200: Empty, ...errors }
    }
  }, async (req) => {
    const { access_key: accessKey } = req.params
    return await syndications.deleteAccessKey(callerOf(req), one.idOf(req), accessKey)
  })
}
