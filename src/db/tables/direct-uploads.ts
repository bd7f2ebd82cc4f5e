import type { BigIntColumn } from './assets.ts'

/** Direct uploads over tus. Migration 0011; docs/uploads.md, "Direct uploads". */

export type DirectUploadStatus = 'waiting' | 'asset_created' | 'cancelled' | 'timed_out' | 'errored'

/** One one-time tus URL: waiting for its one upload, until that completes (`asset_created`) or ends otherwise. */
export interface DirectUploadsTable {
  /** 32 lowercase hex. */
  id: string
  account_id: string
  /** The user who asked for it: its role is checked again when the upload completes. */
  created_by: string
  cors_origin: string | null
  /** Seconds from creation until the URL and its upload expire. */
  timeout: number
  /** JSON: the asset to create on completion. */
  new_asset_settings: string
  status: DirectUploadStatus
  /** The tus upload created on the URL (its `upload_url`), while one lives. */
  upload_id: string | null
  upload_length: BigIntColumn | null
  /** Bytes stored so far: the sum of the parts' lengths. */
  upload_offset: BigIntColumn
  part_count: number
  /** JSON: the tus `Upload-Metadata` pairs. */
  upload_metadata: string | null
  asset_id: string | null
  error: string | null
  /** JSON array: settings dropped at completion (a label, player or rule deleted meanwhile). */
  warnings: string | null
  expires_at: string
  created_at: string
  updated_at: string
}

/** One tus PATCH's bytes, stored as one part of the media store under the direct upload's prefix. */
export interface DirectUploadPartsTable {
  direct_upload_id: string
  part_index: number
  part_offset: BigIntColumn
  part_length: BigIntColumn
}

/** A tus upload's lock, shared by every api process; a holder that died leaves a lock that expires. */
export interface TusLocksTable {
  id: string
  holder: string
  expires_at: string
}
