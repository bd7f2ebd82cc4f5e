import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../app/context.ts'
import { authOf } from '../http/request-types.ts'
import { pageParams } from '../paging/index.ts'
import { createLabelsRepository } from './labels-repository.ts'
import * as S from './labels-schemas.ts'
import * as labels from './labels-service.ts'
import type { LabelsContext } from './labels-writes.ts'

/** `/v2/labels` (product.md §8). `GET /v2/labels/:id/assets` belongs to the assets module. */
export const labelsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const lctx: LabelsContext = { db: ctx.db, database: ctx.database, clock: ctx.clock, labels: createLabelsRepository(ctx.db) }
  const read = { permission: ['labels', 'read'] as const }
  const write = { permission: ['labels', 'write'] as const }
  const tags = ['labels']

  app.get('/v2/labels', {
    config: read,
    schema: { tags, querystring: S.LabelsQuery, response: { 200: S.LabelsPage, ...S.LabelErrors } }
  }, async (req) => await labels.listLabels(lctx, authOf(req).accountId, req.query, pageParams(req, ctx.pageTokens)))

  app.post('/v2/labels', {
    config: write,
    schema: { tags, querystring: S.LabelQuery, body: S.CreateLabelBody, response: { 200: S.Label, ...S.LabelErrors } }
  }, async (req) => await labels.createLabel(lctx, authOf(req).accountId, req.body))

  app.get('/v2/labels/by_full_path/*', {
    config: read,
    schema: { tags, params: S.FullPathParams, querystring: S.LabelQuery, response: { 200: S.LabelItems, ...S.LabelErrors } }
  }, async (req) => await labels.findByFullPaths(lctx, authOf(req).accountId, req.url))

  app.post('/v2/labels/by_full_path/*', {
    config: write,
    schema: { tags, params: S.FullPathParams, querystring: S.LabelQuery, response: { 200: S.LabelArray, ...S.LabelErrors } }
  }, async (req) => await labels.createByFullPaths(lctx, authOf(req).accountId, req.url))

  app.get('/v2/labels/:label_id', {
    config: read,
    schema: { tags, params: S.LabelParams, querystring: S.LabelQuery, response: { 200: S.Label, ...S.LabelErrors } }
  }, async (req) => await labels.getLabel(lctx, authOf(req).accountId, req.params.label_id))

  app.patch('/v2/labels/:label_id', {
    config: write,
    schema: { tags, params: S.LabelParams, querystring: S.LabelQuery, body: S.UpdateLabelBody, response: { 200: S.Label, ...S.LabelErrors } }
  }, async (req) => await labels.updateLabel(lctx, authOf(req).accountId, req.params.label_id, req.body))

  app.put('/v2/labels/:label_id', {
    config: write,
    schema: { tags, params: S.LabelParams, querystring: S.LabelQuery, body: S.ReplaceLabelBody, response: { 200: S.Label, ...S.LabelErrors } }
  }, async (req) => await labels.replaceLabel(lctx, authOf(req).accountId, req.params.label_id, req.body))

  app.delete('/v2/labels/:label_id', {
    config: write,
    schema: { tags, params: S.LabelParams, querystring: S.DeleteLabelQuery, response: { 200: S.Empty, ...S.LabelErrors } }
  }, async (req) => await labels.deleteLabel(lctx, authOf(req).accountId, req.params.label_id, req.query))

  app.get('/v2/labels/:label_id/children', {
    config: read,
    schema: { tags, params: S.LabelParams, querystring: S.ChildrenQuery, response: { 200: S.LabelsPage, ...S.LabelErrors } }
  }, async (req) => await labels.listChildren(lctx, authOf(req).accountId, req.params.label_id, pageParams(req, ctx.pageTokens)))
}
