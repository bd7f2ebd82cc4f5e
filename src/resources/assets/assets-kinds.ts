/** Asset types and statuses (docs/resources.md) and the rules that depend on them. */

export const ASSET_TYPES = ['video', 'audio', 'ad', 'remote_asset', 'youtube', 'live_stream', 'channel'] as const
export type AssetType = typeof ASSET_TYPES[number]

export const ASSET_STATUSES = ['uploading', 'processing', 'live', 'paused', 'error'] as const
export type AssetStatus = typeof ASSET_STATUSES[number]

/** The statuses a client may set, and switch between. */
export const CLIENT_STATUSES = ['live', 'paused'] as const

/** Downloads made with the HLS ladder: none, or MP4 and M4A (`standard`). */
export const MP4_SUPPORT = ['none', 'standard'] as const

/** Media encryption made at processing time: none, or AES-128 HLS (docs/playback.md, "Encryption"). */
export const ENCRYPTIONS = ['none', 'aes-128'] as const

/** Types whose media is uploaded and processed: created `uploading`; the others are `live` at once. */
export const UPLOAD_TYPES: readonly AssetType[] = ['video', 'audio', 'ad']

export function isUploadType (type: string): boolean {
  return (UPLOAD_TYPES as readonly string[]).includes(type)
}

export function initialStatus (type: AssetType): AssetStatus {
  return isUploadType(type) ? 'uploading' : 'live'
}

/** Fields that exist only on some types. */
export const TYPE_SPECIFIC_FIELDS = {
  stream_urls: ['remote_asset'],
  youtube_id: ['youtube'],
  click_url: ['ad'],
  tracking_pixel_urls: ['ad'],
  disable_seek_for_standalone: ['ad'],
  is_live_stream: ['remote_asset'],
  file_name: UPLOAD_TYPES,
  file_size: UPLOAD_TYPES,
  chunk_size: UPLOAD_TYPES,
  mp4_support: UPLOAD_TYPES,
  encryption: UPLOAD_TYPES
} as const satisfies Record<string, readonly AssetType[]>

/** Fields processing fills on uploaded types: a client body that sets them is refused. */
export const PROCESSING_OWNED_FIELDS = ['duration', 'preview_image_url', 'stream_urls'] as const

/** Whether a client may change `current` to `requested`: the same status, or live ↔ paused. */
export function statusChangeAllowed (current: string, requested: string): boolean {
  if (current === requested) return true
  const client: readonly string[] = CLIENT_STATUSES
  return client.includes(current) && client.includes(requested)
}
