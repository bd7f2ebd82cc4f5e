import type { Generated } from 'kysely'
import type { BigIntColumn } from './assets.ts'

/** Uploads and the media job queue. Migration 0006; docs/uploads.md. */

export type UploadKind = 'ingest' | 'replacement'
export type UploadState = 'uploading' | 'uploaded' | 'failed'

/** One upload of an asset's media: the first one (`ingest`) or a `replacement`. */
export interface MediaUploadsTable {
  /** 32 lowercase hex; part of the chunk URLs and of the chunks' store keys. */
  id: string
  account_id: string
  asset_id: string
  kind: UploadKind
  /** `uploading` until complete (`uploaded`) or abandoned (`failed`). */
  state: UploadState
  file_name: string
  file_size: BigIntColumn
  chunk_size: BigIntColumn
  chunk_count: number
  /** The joined original in the media store, once uploaded. */
  original_key: string | null
  created_at: string
  updated_at: string
}

export type ChunkState = 'good' | 'bad'

/** The last complete PUT of each chunk: `good` when its size matched its range, else `bad`. */
export interface MediaUploadChunksTable {
  account_id: string
  upload_id: string
  chunk_index: number
  state: ChunkState
  /** Bytes received (for a bad chunk: as many as were counted before it was refused). */
  size: BigIntColumn
  received_at: string
}

export type MediaJobKind = 'ingest' | 'replacement' | 'captions'
export type MediaJobState = 'pending' | 'running' | 'done' | 'failed'

/**
 * Processing jobs, recorded in the transaction that moves an asset to `processing` (src/media/jobs);
 * workers take them with a lease.
 */
export interface MediaJobsTable {
  id: string
  account_id: string
  asset_id: string
  kind: MediaJobKind
  /** The uploaded original in the media store, under the asset's prefix. */
  original_key: string
  /** A `captions` job's language (migration 0017); null otherwise. */
  language: string | null
  state: MediaJobState
  attempts: Generated<number>
  lease_owner: string | null
  lease_until: string | null
  error: string | null
  created_at: string
  updated_at: string
}
