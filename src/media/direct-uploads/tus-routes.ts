import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Server } from '@tus/server'
import { ERRORS } from '@tus/utils'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { ServerRequest } from 'srvx'
import { NodeRequest } from 'srvx/node'
import { Type } from 'typebox'
import type { DB } from '../../db/tables/index.ts'
import { ApiError } from '../../errors/api-error.ts'
import { ERRORS as ERROR_STATUS, type ErrorCode } from '../../errors/catalogue.ts'
import type { Clock } from '../../lib/clock.ts'
import { hexId } from '../../lib/ids.ts'
import type { MediaStore } from '../store/index.ts'
import { createDirectUploadsRepository, type DirectUploadRow } from './direct-uploads-repository.ts'
import type { DirectUploadsService } from './direct-uploads-service.ts'
import { DatabaseLocker } from './tus-locker.ts'
import { MediaTusStore, tusUploadId } from './tus-store.ts'

export interface TusRoutesDeps {
  directUploads: DirectUploadsService
  db: Kysely<DB>
  mediaStore: MediaStore
  clock: Clock
}

/** The largest upload, as for chunked uploads: 5 TiB. */
const MAX_SIZE = 5 * 1024 ** 4
const SWEEP_MS = 60_000
const TUS_HEADERS = 'Tus-Resumable, Upload-Length, Upload-Metadata, Upload-Offset, Content-Type, Upload-Defer-Length, Upload-Concat, X-Requested-With, X-HTTP-Method-Override'

/** The library's refusals, each answered with our code and its status. */
const CODE_OF_ERROR = new Map<unknown, ErrorCode>([
  [ERRORS.MISSING_OFFSET, 'tus_request_invalid'],
  [ERRORS.ABORTED, 'tus_request_invalid'],
  [ERRORS.INVALID_LENGTH, 'tus_request_invalid'],
  [ERRORS.INVALID_METADATA, 'tus_request_invalid'],
  [ERRORS.INVALID_TERMINATION, 'tus_request_invalid'],
  [ERRORS.UNSUPPORTED_CONCATENATION_EXTENSION, 'tus_request_invalid'],
  [ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION, 'tus_request_invalid'],
  [ERRORS.INVALID_CONTENT_TYPE, 'tus_content_type_invalid'],
  [ERRORS.FILE_NOT_FOUND, 'tus_upload_not_found'],
  [ERRORS.INVALID_OFFSET, 'tus_offset_mismatch'],
  [ERRORS.FILE_NO_LONGER_EXISTS, 'tus_upload_gone'],
  [ERRORS.ERR_SIZE_EXCEEDED, 'tus_body_too_large'],
  [ERRORS.ERR_MAX_SIZE_EXCEEDED, 'tus_body_too_large'],
  [ERRORS.ERR_LOCK_TIMEOUT, 'tus_upload_locked']
])

/** What the library answers without an error object (a missing Tus-Resumable, an invalid header), by status. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'tus_request_invalid',
  404: 'tus_upload_not_found',
  409: 'tus_offset_mismatch',
  410: 'tus_upload_gone',
  412: 'tus_version_required',
  413: 'tus_body_too_large',
  415: 'tus_content_type_invalid',
  423: 'tus_upload_locked'
}

const Creation = Type.Object({ id: Type.String({ maxLength: 64 }), token: Type.String({ maxLength: 64 }) })
const UploadParams = Type.Object({ id: Type.String({ maxLength: 64 }), token: Type.String({ maxLength: 64 }), upload_id: Type.String({ maxLength: 64 }) })

/**
 * The tus endpoints of direct uploads (docs/uploads.md, "tus"): tus 1.0 with creation,
 * creation-with-upload, termination and expiration, through `@tus/server` over our media store, with
 * locks in the database. Public: the one-time URL is the credential. CORS answers only the direct
 * upload's `cors_origin`, and a browser request from another origin is refused. Each reply goes out
 * through Fastify, so it carries the request id and the credit headers; refusals carry our error body.
 */
export const tusRoutes: FastifyPluginAsyncTypebox<TusRoutesDeps> = async (app, { directUploads, db, mediaStore, clock }) => {
  const repository = createDirectUploadsRepository(db)
  const rows = new WeakMap<ServerRequest, DirectUploadRow>()
  const rowOf = (req: ServerRequest): DirectUploadRow => rows.get(req) as DirectUploadRow
  const store = new MediaTusStore(db, repository, mediaStore, clock, async (row) => { await directUploads.expire(row) })
  const server = new Server({
    path: directUploads.tusPath,
    datastore: store,
    locker: new DatabaseLocker(db, clock),
    maxSize: MAX_SIZE,
    allowedOrigins: () => false,
    disableTerminationForFinishedUploads: true,
    namingFunction: (req) => tusUploadId(rowOf(req).id, hexId()),
    generateUrl: (req, { id }) => directUploads.uploadUrlOf(rowOf(req), id.split('.')[1] as string),
    getFileIdFromRequest: (req) => {
      const uploadId = new URL(req.url).pathname.split('/')[5]
      return uploadId === undefined ? undefined : tusUploadId(rowOf(req).id, uploadId)
    },
    onUploadFinish: async (req) => {
      await directUploads.complete(rowOf(req).id)
      return {}
    },
    onResponseError: (_req, error) => {
      if (error instanceof ApiError) return { status_code: error.status, body: JSON.stringify({ code: error.code, message: error.message }) }
      // The library's own errors: one of ERRORS, or an error carrying its status (the body limiter's 413).
      const { body, code, status_code: status } = error as { body?: string, code?: ErrorCode, status_code?: number }
      const known = (code !== undefined && code in ERROR_STATUS ? code : undefined) ?? CODE_OF_ERROR.get(error) ?? (status === undefined ? undefined : CODE_OF_STATUS[status])
      if (known === undefined) {
        app.log.error({ err: error }, 'tus request failed')
        return { status_code: 500, body: JSON.stringify({ code: 'internal_error', message: 'The upload could not be stored; try again.' }) }
      }
      return { status_code: ERROR_STATUS[known].status, body: JSON.stringify({ code: known, message: (body ?? '').trim() }) }
    }
  })

  const sweep = setInterval(() => { server.cleanUpExpiredUploads().catch((error: unknown) => { app.log.warn({ err: error }, 'tus expiry sweep failed') }) }, SWEEP_MS)
  sweep.unref()
  app.addHook('onClose', async () => { clearInterval(sweep) })

  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, _payload, done) => { done(null, undefined) })

  /** The direct upload of the URL, its origin checked; the CORS headers set for it. */
  async function directUploadOf (request: FastifyRequest<{ Params: { id: string, token: string } }>, reply: FastifyReply): Promise<DirectUploadRow> {
    const row = await directUploads.ofUrl(request.params.id, request.params.token)
    if (row === undefined) throw new ApiError('direct_upload_not_found', 'This tus URL names no direct upload: use the direct upload\'s url as given.')
    const origin = request.headers.origin
    if (origin !== undefined) {
      if (origin !== row.cors_origin) throw new ApiError('tus_origin_not_allowed', `Origin ${origin} may not upload here: the direct upload answers ${row.cors_origin ?? 'no browser origin'}.`)
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
    }
    return row
  }

  /** Hands the request to the tus server and sends its reply through Fastify (refusals as our errors). */
  async function viaTus (request: FastifyRequest, reply: FastifyReply, row: DirectUploadRow): Promise<FastifyReply> {
    const req = new NodeRequest({ req: request.raw, res: reply.raw })
    rows.set(req, row)
    const response = await server.handleWeb(req)
    const headers: Record<string, string> = {}
    response.headers.forEach((value: string, name: string) => {
      if (name !== 'content-length' && name !== 'access-control-allow-origin') headers[name] = value
    })
    if (response.status >= 400) {
      const text = await response.text()
      let parsed: { code?: ErrorCode, message?: string } = {}
      try { parsed = JSON.parse(text) as typeof parsed } catch { parsed = { message: text.trim() } }
      const code = parsed.code ?? CODE_OF_STATUS[response.status] ?? 'tus_request_invalid'
      // A refused body may be unread: the connection cannot carry another request.
      if (response.status === 413) headers.connection = 'close'
      throw new ApiError(code, parsed.message === undefined || parsed.message === '' ? 'The tus request was refused.' : parsed.message, undefined, headers)
    }
    await response.body?.cancel()
    const offset = headers['upload-offset']
    if (row.upload_length === null || offset === undefined || Number(offset) < Number(row.upload_length)) headers['upload-expires'] = new Date(row.expires_at).toUTCString()
    return await reply.code(response.status).headers(headers).send()
  }

  const config = { public: true, streamBody: true }
  const schema = { hide: true }

  app.options('/v2/tus/:id/:token', { config, schema: { ...schema, params: Creation } }, async (request, reply) => {
    await directUploadOf(request, reply)
    return await preflight(reply, 'POST, OPTIONS')
  })
  app.options('/v2/tus/:id/:token/:upload_id', { config, schema: { ...schema, params: UploadParams } }, async (request, reply) => {
    await directUploadOf(request, reply)
    return await preflight(reply, 'HEAD, PATCH, DELETE, OPTIONS')
  })

  app.post('/v2/tus/:id/:token', { config, schema: { ...schema, params: Creation } }, async (request, reply) => {
    const row = await directUploadOf(request, reply)
    if (row.status === 'cancelled' || row.status === 'timed_out') throw new ApiError('tus_upload_gone', `The direct upload is ${row.status === 'cancelled' ? 'cancelled' : 'past its timeout'}; create a new one.`)
    if (row.status !== 'waiting') throw new ApiError('direct_upload_closed', `The direct upload is ${row.status}; it takes no new upload.`)
    if (request.headers['upload-defer-length'] !== undefined) throw new ApiError('tus_request_invalid', 'Upload-Defer-Length is not supported: send Upload-Length.')
    const declared = Number(request.headers['content-length'] ?? 0)
    if (declared > Number(request.headers['upload-length'] ?? Number.POSITIVE_INFINITY)) {
      throw new ApiError('tus_body_too_large', 'The body is longer than Upload-Length: nothing was created.', undefined, { connection: 'close' })
    }
    if (row.upload_id !== null) throw new ApiError('direct_upload_used', 'This URL already created its one upload: continue it at the direct upload\'s upload_url.')
    return await viaTus(request, reply, row)
  })

  for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
    app.route({
      method,
      url: '/v2/tus/:id/:token/:upload_id',
      config,
      schema: { ...schema, params: UploadParams },
      handler: async (request: FastifyRequest<{ Params: { id: string, token: string, upload_id: string } }>, reply) => {
        const row = await directUploadOf(request, reply)
        if (row.status === 'cancelled' || row.status === 'timed_out') throw new ApiError('tus_upload_gone', `The direct upload is ${row.status === 'cancelled' ? 'cancelled' : 'past its timeout'}: its upload is gone.`)
        if (row.upload_id !== request.params.upload_id) throw new ApiError('tus_upload_not_found', 'This URL names no living upload of the direct upload.')
        // A completion that failed after the last byte (a crash, a busy database) is finished by the next HEAD.
        if (method === 'HEAD' && row.status === 'waiting' && row.upload_length !== null && Number(row.upload_offset) === Number(row.upload_length)) {
          await directUploads.complete(row.id)
        }
        return await viaTus(request, reply, row)
      }
    })
  }

  async function preflight (reply: FastifyReply, methods: string): Promise<FastifyReply> {
    return await reply.code(204)
      .header('access-control-allow-methods', methods)
      .header('access-control-allow-headers', TUS_HEADERS)
      .header('access-control-max-age', '86400')
      .header('tus-resumable', '1.0.0').header('tus-version', '1.0.0')
      .header('tus-extension', store.extensions.join(','))
      .header('tus-max-size', String(MAX_SIZE))
      .send()
  }
}
