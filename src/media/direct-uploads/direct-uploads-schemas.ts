import { Type, type Static } from 'typebox'
import { HexId, Name, Timestamp } from '../../http/schemas.ts'

/** Direct uploads (docs/uploads.md, "Direct uploads"): the request and answer shapes. */

const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$'

export const NewAssetSettings = Type.Object({
  name: Type.String({ ...Name, description: 'The asset\'s name' }),
  asset_type: Type.Optional(Type.Union([Type.Literal('video'), Type.Literal('audio'), Type.Literal('ad')], { description: 'default `video`' })),
  description: Type.Optional(Type.String({ maxLength: 10_000, description: 'The asset\'s description' })),
  external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL })),
  post_processing_status: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('paused')], { description: 'The status once processed (default `live`)' })),
  player_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  publishing_rule_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, description: 'Label ids' })),
  metadata: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.String({ maxLength: 2048 }), { maxProperties: 100 }))
}, { additionalProperties: false, description: 'The asset the completed upload creates (checked now and again at completion)' })
export type NewAssetSettings = Static<typeof NewAssetSettings>

export const CreateDirectUploadBody = Type.Object({
  cors_origin: Type.Optional(Type.String({ maxLength: 255, pattern: '^https?://[^/?#\\s]+$', description: 'The origin of the page that uploads (scheme, host, port): CORS answers it alone', examples: ['https://app.example.com'] })),
  timeout: Type.Optional(Type.Integer({ minimum: 60, maximum: 604_800, description: 'Seconds until the URL and its upload expire (default 3600)', examples: [3600] })),
  new_asset_settings: NewAssetSettings
}, { additionalProperties: false })
export type CreateDirectUploadBody = Static<typeof CreateDirectUploadBody>

export const DirectUploadStatus = Type.Union([Type.Literal('waiting'), Type.Literal('asset_created'), Type.Literal('cancelled'), Type.Literal('timed_out'), Type.Literal('errored')])

export const DirectUpload = Type.Object({
  id: HexId,
  url: Type.String({ description: 'The tus creation URL, good for one upload (the URL is the credential: hand it only to the uploader)' }),
  upload_url: Type.Union([Type.String(), Type.Null()], { description: 'The tus upload created on `url`, once created: continue it from any device' }),
  status: DirectUploadStatus,
  timeout: Type.Integer(),
  cors_origin: Type.Union([Type.String(), Type.Null()]),
  new_asset_settings: Type.Unknown(),
  asset_id: Type.Union([Type.String(), Type.Null()]),
  upload_length: Type.Union([Type.Integer(), Type.Null()]),
  upload_offset: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  warnings: Type.Array(Type.String()),
  created_at: Timestamp,
  expires_at: Timestamp
})
export type ApiDirectUpload = Static<typeof DirectUpload>

export const DirectUploadParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
