import { Type, type Static } from 'typebox'
import { Problem, SignedErrors, SignedQuery } from '../../http/schemas.ts'
import { IntegerInput } from '../../resources/assets/index.ts'

/** Request and response schemas of the upload protocol (docs/uploads.md). */

const ASSET_ID = 'The asset\'s embed code again, as a browser uploader\'s backend forwards it; must match the path'
const AssetIdEcho = Type.Optional(Type.String({ maxLength: 255, description: ASSET_ID, examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] }))

export const UploadingUrlsQuery = Type.Object({ ...SignedQuery, asset_id: AssetIdEcho })

export const ChunkUrls = Type.Array(Type.String({ description: 'An absolute chunk URL' }), {
  title: 'ChunkUrls',
  description: 'The chunk URLs, in file order: PUT each chunk\'s bytes to its URL (no signature, any Content-Type). Each URL\'s path ends in the chunk\'s name (`chunk-000003`).',
  examples: [['https://media.example.com/v2/assets/Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6/uploads/3f2a9c0e5b7d4e1fa6c8b0d2e4f60718/chunk-000000?range=0-99999&expires=1796205600&signature=9c1e…']]
})

export const UploadStatusBody = Type.Object({
  status: Type.Enum(['uploaded', 'failed'], { description: '`uploaded` completes the upload (every chunk must be there); `failed` abandons it', examples: ['uploaded'] }),
  asset_id: AssetIdEcho
}, { additionalProperties: false })

export const UploadStatus = Type.Object({
  status: Type.Enum(['uploaded', 'failed'], { description: 'What happened to the upload', examples: ['uploaded'] })
}, { title: 'UploadStatus', description: 'The upload\'s new state' })

export const ProcessBody = Type.Object({
  initiation_type: Type.Enum(['original_ingest'], { description: 'What to process: the uploaded original', examples: ['original_ingest'] }),
  processing_profile_id: Type.Optional(Type.String({ maxLength: 64, description: 'The processing profile; the one profile is `default`', examples: ['default'] }))
}, { additionalProperties: false })

export const ProcessAnswer = Type.Object({
  status: Type.String({ description: 'The asset\'s status afterwards', examples: ['processing'] })
}, { title: 'ProcessAnswer', description: 'Processing was started' })

export const ReplacementBody = Type.Object({
  file_name: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f]*$', description: 'The new file\'s name', examples: ['final-v2.mp4'] }),
  file_size: IntegerInput(0, 'The new file\'s size in bytes (a numeric string is accepted)', 73400320),
  chunk_size: Type.Optional(IntegerInput(1, 'The chunk size in bytes; absent: one chunk (a numeric string is accepted)', 5242880))
}, { additionalProperties: false })

export const Replacement = Type.Object({
  status: Type.Enum(['uploading'], { description: 'The replacement waits for its chunks', examples: ['uploading'] }),
  file_name: Type.String({ description: 'The new file\'s name', examples: ['final-v2.mp4'] }),
  file_size: Type.Integer({ description: 'Its size in bytes', examples: [73400320] }),
  chunk_size: Type.Integer({ description: 'Its chunk size in bytes', examples: [5242880] })
}, { title: 'Replacement', description: 'A replacement upload: get its chunk URLs from replacement/uploading_urls' })

export const SourceFileInfo = Type.Object({
  original_file_name: Type.Union([Type.String(), Type.Null()], { description: 'The uploaded file\'s name', examples: ['final.mp4'] }),
  source_file_url: Type.Union([Type.String(), Type.Null()], { description: 'Where the original can be fetched once processed, else null', examples: ['https://media.example.com/media/…/original.mp4'] }),
  file_size: Type.Union([Type.Integer(), Type.Null()], { description: 'The uploaded file\'s size in bytes', examples: [73400320] })
}, { additionalProperties: true, title: 'SourceFileInfo', description: 'The uploaded original, plus what the probe found once processed (duration, container, streams…)' })

export const ProcessingProfile = Type.Object({
  id: Type.String({ description: 'The profile\'s id', examples: ['default'] }),
  name: Type.String({ description: 'Its name', examples: ['Default'] }),
  description: Type.String({ description: 'What it makes', examples: ['H.264 + AAC HLS ladder'] })
}, { title: 'ProcessingProfile', description: 'A processing profile' })
export const ProcessingProfiles = Type.Object({ items: Type.Array(ProcessingProfile, { description: 'Every processing profile' }) }, { title: 'ProcessingProfiles', description: 'The processing profiles (not paged)' })

/** A chunk URL's own parameters: made by uploading_urls, checked by the chunk PUT. */
export const ChunkQuery = Type.Object({
  range: Type.Optional(Type.String({ description: 'The chunk\'s first and last byte in the file', examples: ['0-99999'] })),
  expires: Type.Optional(Type.String({ description: 'Unix time after which the URL is refused', examples: ['1796205600'] })),
  signature: Type.Optional(Type.String({ description: 'The URL\'s HMAC', examples: ['9c1e5a…'] }))
})
export const ChunkParams = Type.Object({
  asset_id: Type.String({ description: 'The asset\'s embed code', examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] }),
  upload_id: Type.String({ description: 'The upload\'s id', examples: ['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'] }),
  chunk: Type.String({ description: 'The chunk\'s name', examples: ['chunk-000003'] })
})
export const ChunkReceipt = Type.Object({
  chunk: Type.String({ description: 'The chunk\'s name', examples: ['chunk-000003'] }),
  size: Type.Integer({ description: 'Bytes stored', examples: [100000] })
}, { title: 'ChunkReceipt', description: 'The chunk is stored' })
export const ChunkErrors = { 400: Problem, 403: Problem, 404: Problem, 409: Problem }

export const UploadErrors = { ...SignedErrors, 409: Problem }

export type UploadStatusBody = Static<typeof UploadStatusBody>
export type ProcessBody = Static<typeof ProcessBody>
export type ReplacementBody = Static<typeof ReplacementBody>
export type SourceFileInfo = Static<typeof SourceFileInfo>
export type ChunkQuery = Static<typeof ChunkQuery>
