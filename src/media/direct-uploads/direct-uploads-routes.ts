import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../../http/request-types.ts'
import { pageOf, PageQuery, Problem, SignedErrors } from '../../http/schemas.ts'
import { pageParams, type PageTokens } from '../../paging/index.ts'
import { SignedOnly } from '../../resources/kit/crud-routes.ts'
import * as S from './direct-uploads-schemas.ts'
import type { DirectUploadsService } from './direct-uploads-service.ts'

const read = { permission: ['assets', 'read'] as const }
const write = { permission: ['assets', 'write'] as const }
const tags = ['uploads']
const errors = { ...SignedErrors, 404: Problem, 409: Problem }

/** The signed routes of direct uploads (docs/uploads.md, "Direct uploads"); the tus URLs are tus-routes.ts. */
export const directUploadsRoutes: FastifyPluginAsyncTypebox<{ directUploads: DirectUploadsService, pageTokens: PageTokens }> = async (app, { directUploads, pageTokens }) => {
  app.post('/v2/direct_uploads', {
    config: write,
    schema: {
      operationId: 'createDirectUpload',
      summary: 'Create a direct upload',
      description: 'Answers a one-time tus URL (`url`) for an uploader that holds no secret (a browser, an app): it creates exactly one tus upload, whose URL becomes `upload_url`; when that upload completes, the asset of `new_asset_settings` is created and processed as after `upload_status`. `timeout` (60 to 604,800 s, default 3,600) bounds the URL and its upload; `cors_origin` is the only origin CORS answers. The settings\' player, publishing rule and labels must exist (400), and are checked again at completion.',
      tags, querystring: SignedOnly, body: S.CreateDirectUploadBody, response: { 200: S.DirectUpload, ...errors }
    }
  }, async (req) => await directUploads.create(callerOf(req), req.body))

  app.get('/v2/direct_uploads', {
    config: read,
    schema: { operationId: 'listDirectUploads', summary: 'List direct uploads', description: 'Oldest first, paged.', tags, querystring: PageQuery, response: { 200: pageOf(S.DirectUpload), ...errors } }
  }, async (req) => await directUploads.list(callerOf(req), pageParams(req, pageTokens)))

  app.get('/v2/direct_uploads/:id', {
    config: read,
    schema: { operationId: 'getDirectUpload', summary: 'Get a direct upload', description: 'Its status (`waiting`, `asset_created`, `cancelled`, `timed_out`, `errored`), `upload_url` once the upload is created, its offset, and `asset_id` once complete.', tags, params: S.DirectUploadParams, querystring: SignedOnly, response: { 200: S.DirectUpload, ...errors } }
  }, async (req) => await directUploads.get(callerOf(req), req.params.id))

  app.put('/v2/direct_uploads/:id/cancel', {
    config: write,
    schema: { operationId: 'cancelDirectUpload', summary: 'Cancel a direct upload', description: 'A waiting direct upload stops taking bytes (its URLs answer 410) and drops what it held; one that already created its asset is a 409.', tags, params: S.DirectUploadParams, querystring: SignedOnly, response: { 200: S.DirectUpload, ...errors } }
  }, async (req) => await directUploads.cancel(callerOf(req), req.params.id))
}
