import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { UploadKind } from '../../db/tables/index.ts'
import { callerOf } from '../../http/request-types.ts'
import { SignedOnly } from '../../resources/kit/crud-routes.ts'
import { AssetParams } from '../../resources/assets/index.ts'
import * as S from './uploads-schemas.ts'
import { PROCESSING_PROFILES, type UploadsService } from './uploads-service.ts'

const read = { permission: ['assets', 'read'] as const }
const write = { permission: ['assets', 'write'] as const }
const tags = ['uploads']
const idOf = (req: FastifyRequest): string => (req.params as { asset_id: string }).asset_id

/**
 * The signed half of the upload protocol (docs/uploads.md): chunk URLs, completion, processing,
 * replacements and the source file. The chunk PUTs themselves are public: chunk-routes.ts.
 */
export const uploadsRoutes: FastifyPluginAsync<{ uploads: UploadsService }> = async (app, { uploads }) => {
  const steps: Array<{ prefix: string, kind: UploadKind, what: string, op: string }> = [
    { prefix: '', kind: 'ingest', what: 'upload', op: '' },
    { prefix: 'replacement/', kind: 'replacement', what: 'replacement upload', op: 'Replacement' }
  ]
  for (const { prefix, kind, what, op } of steps) {
    app.get(`/v2/assets/:asset_id/${prefix}uploading_urls`, {
      config: write,
      schema: {
        operationId: `getAsset${op}UploadingUrls`,
        summary: `Get the chunk URLs of an asset's ${what}`,
        description: `Answers a bare JSON array of absolute chunk URLs, one per chunk in file order. PUT each chunk's bytes to its URL: no api_key, any Content-Type, in parallel if you like. The URLs expire after 24 hours; asking again gives fresh URLs for the same ${what}, and chunks already received stay. ${kind === 'ingest' ? 'The asset must be `uploading` (409 otherwise).' : 'Start the replacement first with POST replacement (409 otherwise).'}`,
        tags, params: AssetParams, querystring: S.UploadingUrlsQuery, response: { 200: S.ChunkUrls, ...S.UploadErrors }
      }
    }, async (req) => await uploads.uploadingUrls(callerOf(req), idOf(req), kind, (req.query as { asset_id?: string }).asset_id))

    app.put(`/v2/assets/:asset_id/${prefix}upload_status`, {
      config: write,
      schema: {
        operationId: `setAsset${op}UploadStatus`,
        summary: `Complete or abandon an asset's ${what}`,
        description: `\`{"status":"uploaded"}\` checks every chunk: 400 \`upload_incomplete\` with \`missing_chunks\` and \`bad_chunks\` (chunk names, each found in exactly one chunk URL) when some are missing or had the wrong size; else the chunks are joined into the original, ${kind === 'ingest' ? 'the asset becomes `processing`' : 'the asset stays on its current media until the new one is processed'}, and the answer is \`{"status":"uploaded"}\`. \`{"status":"failed"}\` abandons the ${what}.`,
        tags, params: AssetParams, querystring: SignedOnly, body: S.UploadStatusBody, response: { 200: S.UploadStatus, ...S.UploadErrors }
      }
    }, async (req) => await uploads.setStatus(callerOf(req), idOf(req), kind, req.body as S.UploadStatusBody))
  }

  app.post('/v2/assets/:asset_id/replacement', {
    config: write,
    schema: {
      operationId: 'startAssetReplacement',
      summary: 'Start replacing an asset\'s media',
      description: 'Opens an upload of new media for a processed asset (`live`, `paused` or `error`; 409 otherwise, or when a replacement is already uploading). The asset keeps its id, URLs and analytics and stays on its current media until the new media is processed.',
      tags, params: AssetParams, querystring: SignedOnly, body: S.ReplacementBody, response: { 200: S.Replacement, ...S.UploadErrors }
    }
  }, async (req) => await uploads.startReplacement(callerOf(req), idOf(req), req.body as S.ReplacementBody))

  app.post('/v2/assets/:asset_id/process', {
    config: write,
    schema: {
      operationId: 'processAsset',
      summary: 'Start processing an asset',
      description: 'With `initiation_type` `original_ingest`: for an `uploading` asset, the same as `upload_status` `uploaded`; for an asset whose processing failed (`error`), processes its original again. `processing_profile_id` may be `default`, the one profile.',
      tags, params: AssetParams, querystring: SignedOnly, body: S.ProcessBody, response: { 200: S.ProcessAnswer, ...S.UploadErrors }
    }
  }, async (req) => await uploads.process(callerOf(req), idOf(req), req.body as S.ProcessBody))

  app.get('/v2/assets/:asset_id/source_file_info', {
    config: read,
    schema: {
      operationId: 'getAssetSourceFileInfo',
      summary: 'Get an asset\'s source file',
      description: 'The uploaded original: its name, size and (once processed) its URL, plus what the probe found (duration, container, streams).',
      tags, params: AssetParams, querystring: SignedOnly, response: { 200: S.SourceFileInfo, ...S.UploadErrors }
    }
  }, async (req) => await uploads.sourceFileInfo(callerOf(req), idOf(req)))

  app.get('/v2/processing_profiles', {
    config: read,
    schema: {
      operationId: 'listProcessingProfiles',
      summary: 'List processing profiles',
      description: 'The processing profiles, all at once: the one built-in profile, `default`.',
      tags, querystring: SignedOnly, response: { 200: S.ProcessingProfiles, ...S.UploadErrors }
    }
  }, async () => ({ items: PROCESSING_PROFILES }))
}
