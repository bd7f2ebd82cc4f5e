import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../../http/request-types.ts'
import { PageQuery, pageOf } from '../../http/schemas.ts'
import { pageParams, type PageTokens } from '../../paging/index.ts'
import { parts, registerCrudRoutes, type ResourceRoutes } from '../kit/crud-routes.ts'
import * as S from './labels-schemas.ts'
import type { LabelsService } from './labels-service.ts'

/** `/v2/labels`, its children and the full-path lookups. `GET /v2/labels/:label_id/assets` belongs to assets. */
export const labelsRoutes: FastifyPluginAsyncTypebox<{ labels: LabelsService, pageTokens: PageTokens }> = async (app, { labels, pageTokens }) => {
  const routes: ResourceRoutes = { path: '/v2/labels', id: 'label_id', area: 'labels', tag: 'labels', noun: { one: 'label', many: 'labels' }, errors: S.LabelErrors, pageTokens }
  const { read, write, one, errors, tags } = parts(routes)
  const byPath = { tags, params: S.FullPathParams, querystring: one.schema.querystring }

  app.get('/v2/labels/by_full_path/*', {
    config: read,
    schema: {
      operationId: 'getLabelsByFullPath',
      summary: 'Find labels by full path',
      description: 'Answers one label per full path (`/Sports/Hockey`), in request order. If any path does not exist the answer is 400 with `missing_labels`, the paths that do not.',
      ...byPath,
      response: { 200: S.LabelItems, ...errors }
    }
  }, async (req) => await labels.findByFullPaths(callerOf(req), req.url))
  app.post('/v2/labels/by_full_path/*', {
    config: write,
    schema: {
      operationId: 'createLabelsByFullPath',
      summary: 'Create labels along full paths',
      description: 'Creates every missing label along each full path, parents first, in one transaction, and answers a JSON array with the label of each requested path (existing or new), in request order. If any path is invalid nothing is created.',
      ...byPath,
      response: { 200: S.LabelArray, ...errors }
    }
  }, async (req) => await labels.createByFullPaths(callerOf(req), req.url))

  registerCrudRoutes(app, routes, {
    item: S.Label,
    create: S.CreateLabelBody,
    update: S.UpdateLabelBody,
    listQuery: S.LabelsQuery,
    removeQuery: S.DeleteLabelQuery,
    docs: {
      notes: {
        list: '`is_root` keeps only top-level labels (true) or only labels with a parent (false).',
        create: 'A name already used by a sibling answers 400.',
        update: 'Renaming or moving (`parent_id`, null for the top level) rewrites the full names of the whole subtree. A label cannot move under itself or its descendants.',
        replace: 'A `parent_id` not given means the top level.',
        delete: 'A label with children is deleted only with `recursive=true`, with its whole subtree (else 409). Assets and syndications lose the label.'
      }
    }
  }, labels)

  app.get(`${one.path}/children`, {
    config: read,
    schema: {
      operationId: 'listLabelChildren',
      summary: 'List a label\'s children',
      description: 'One page of the label\'s direct children, oldest first, paged like every list.',
      ...one.schema,
      querystring: PageQuery,
      response: { 200: pageOf(S.Label), ...errors }
    }
  }, async (req) => await labels.children(callerOf(req), one.idOf(req), pageParams(req, pageTokens)))
}
