import { Type, type Static } from 'typebox'
import { HexId, Name, Timestamp } from '../../http/schemas.ts'

/** Direct uploads (docs/uploads.md, "Direct uploads"): the request and answer shapes. */

const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$'

export const NewAssetSettings = Type.Object({
  name: Type.String({ ...Name, description: 'The asset\'s name' }),
  asset_type: Type.Optional(Type.Union([Type.Literal('video'), Type.Literal('audio'), Type.Literal('ad')], { description: 'The asset\'s type (default `video`)', examples: ['video'] })),
  description: Type.Optional(Type.String({ maxLength: 10_000, description: 'The asset\'s description', examples: ['Filmed on the pier'] })),
  external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL, description: 'The asset\'s external id (unique in the account)', examples: ['cms-4711'] })),
  post_processing_status: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('paused')], { description: 'The status once processed (default `live`)', examples: ['live'] })),
  player_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The asset\'s player', examples: ['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'] })),
  publishing_rule_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The asset\'s publishing rule', examples: ['9c0e5b7d4e1fa6c8b0d2e4f607183f2a'] })),
  labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, description: 'Label ids', examples: [['5b7d4e1fa6c8b0d2e4f607183f2a9c0e']] })),
  metadata: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.String({ maxLength: 2048 }), { maxProperties: 100, description: 'The asset\'s metadata (name → value)', examples: [{ season: '2' }] }))
}, { additionalProperties: false, description: 'The asset the completed upload creates (checked now and again at completion)' })
export type NewAssetSettings = Static<typeof NewAssetSettings>

export const CreateDirectUploadBody = Type.Object({
  cors_origin: Type.Optional(Type.String({ maxLength: 255, pattern: '^https?://[^/?#\\s\\u0000-\\u001f\\u007f]+$', description: 'The origin of the page that uploads (scheme, host, port): CORS answers it alone', examples: ['https://app.example.com'] })),
  timeout: Type.Optional(Type.Integer({ minimum: 60, maximum: 604_800, description: 'Seconds until the URL and its upload expire (default 3600)', examples: [3600] })),
  new_asset_settings: NewAssetSettings
}, { additionalProperties: false })
export type CreateDirectUploadBody = Static<typeof CreateDirectUploadBody>

export const DirectUploadStatus = Type.Union([Type.Literal('waiting'), Type.Literal('asset_created'), Type.Literal('cancelled'), Type.Literal('timed_out'), Type.Literal('errored')], { description: '`waiting` for its upload, `asset_created` once complete, or ended (`cancelled`, `timed_out`, `errored`)', examples: ['waiting'] })

export const DirectUpload = Type.Object({
  id: HexId,
  url: Type.String({ description: 'The tus creation URL, good for one upload (the URL is the credential: hand it only to the uploader)', examples: ['https://api.example.com/v2/tus/3f2a9c0e5b7d4e1fa6c8b0d2e4f60718/q5b7d4e1fa6c8b0d2e4f607183f2a9c0'] }),
  upload_url: Type.Union([Type.String(), Type.Null()], { description: 'The tus upload created on `url`, once created: continue it from any device', examples: [null] }),
  status: DirectUploadStatus,
  timeout: Type.Integer({ description: 'Seconds from creation until the URL and its upload expire', examples: [3600] }),
  cors_origin: Type.Union([Type.String(), Type.Null()], { description: 'The one origin CORS answers', examples: ['https://app.example.com'] }),
  new_asset_settings: Type.Unknown({ description: 'The asset the completed upload creates, as given', examples: [{ name: 'Pier at dusk' }] }),
  asset_id: Type.Union([Type.String(), Type.Null()], { description: 'The asset the completed upload created', examples: [null] }),
  upload_length: Type.Union([Type.Integer(), Type.Null()], { description: 'The upload\'s declared size in bytes, once created', examples: [73400320] }),
  upload_offset: Type.Integer({ description: 'Bytes the server holds', examples: [0] }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why it ended, when it ended without an asset', examples: [null] }),
  warnings: Type.Array(Type.String(), { description: 'Settings dropped at completion (a label, player or rule deleted meanwhile)', examples: [[]] }),
  created_at: Timestamp,
  expires_at: Timestamp
})
export type ApiDirectUpload = Static<typeof DirectUpload>

export const DirectUploadParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The direct upload\'s id', examples: ['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'] }) })
