import type { FastifyPluginAsync } from 'fastify'
import * as S from './uploads-schemas.ts'
import type { UploadsService } from './uploads-service.ts'

const CHUNK_PATH = '/v2/assets/:asset_id/uploads/:upload_id/:chunk'

/**
 * Chunk PUTs (docs/uploads.md, "Chunk URLs"): public, since the URL is the credential; cost no credits;
 * the body is raw bytes of any Content-Type, streamed to the media store, never parsed nor held whole.
 * Browsers PUT chunks cross-origin straight from a page, so the preflight and the PUT answer any origin.
 * Registered as a plugin of its own: its content-type parser leaves the body unread for the handler.
 */
export const chunkRoutes: FastifyPluginAsync<{ uploads: UploadsService }> = async (app, { uploads }) => {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, _payload, done) => { done(null, undefined) })
  app.addHook('onSend', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*')
    reply.header('access-control-expose-headers', 'x-request-id')
  })

  app.options(CHUNK_PATH, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const asked = request.headers['access-control-request-headers']
    return await reply.code(204)
      .header('access-control-allow-methods', 'PUT, OPTIONS')
      .header('access-control-allow-headers', typeof asked === 'string' && asked !== '' ? asked : 'content-type')
      .header('access-control-max-age', '86400')
      .send()
  })

  app.put(CHUNK_PATH, {
    config: { public: true, streamBody: true },
    schema: {
      operationId: 'putUploadChunk',
      summary: 'Upload one chunk',
      description: 'PUT the chunk\'s bytes, exactly its `range` (first to last byte, inclusive), to the URL `uploading_urls` gave: no api_key, any Content-Type, no credits charged. A body of another length is refused (400 `chunk_size_mismatch`) and the chunk recorded as bad until sent again; a chunk may be sent again any time before the upload is complete, and the last complete PUT wins. A changed URL is 403 `chunk_url_invalid`, an expired one 403 `chunk_url_expired`.',
      tags: ['uploads'],
      params: S.ChunkParams,
      querystring: S.ChunkQuery,
      response: { 200: S.ChunkReceipt, ...S.ChunkErrors }
    }
  }, async (request) => {
    const declared = request.headers['content-length']
    return await uploads.receiveChunk(request.params as { asset_id: string, upload_id: string, chunk: string }, request.query as S.ChunkQuery, request.raw,
      declared === undefined ? undefined : Number(declared))
  })
}
