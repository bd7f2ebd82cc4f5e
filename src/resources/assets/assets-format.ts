import type { DeletedAssetsTable } from '../../db/tables/index.ts'
import { apiTime } from '../../lib/clock.ts'
import type { ApiLabel } from '../labels/index.ts'
import type { ApiPlayer } from '../players/index.ts'
import { isUploadType, type AssetStatus, type AssetType } from './assets-kinds.ts'
import type { AssetRow } from './assets-repository.ts'
import type { ApiAsset, ApiDeletedAsset, ApiProcessing, ApiStreamUrls, ApiTimeRestrictions } from './assets-schemas.ts'

/** What `include` adds to an asset. */
export interface AssetExtras {
  metadata?: Record<string, string>
  labels?: ApiLabel[]
  player?: ApiPlayer | null
  /** Where the media job of an upload type stands (null once it is over). */
  processing?: ApiProcessing | null
  /**
   * Signs an uploaded original's URL for a caller whose role reads the asset (docs/media.md,
   * "Originals"); without it (events, webhooks) `stream_urls` carries no `source_file`.
   */
  signOriginal?: (url: string) => string
}

/** The one mapping from an assets row to its API shape; type-specific fields appear on their types only. */
export function toApiAsset (row: AssetRow, extras: AssetExtras = {}): ApiAsset {
  const type = row.asset_type as AssetType
  return {
    embed_code: row.id,
    asset_type: type,
    name: row.name,
    description: row.description,
    external_id: row.external_id,
    status: row.status as AssetStatus,
    post_processing_status: row.post_processing_status as ApiAsset['post_processing_status'],
    duration: Number(row.duration),
    original_file_name: row.original_file_name,
    file_size: row.file_size === null ? null : Number(row.file_size),
    preview_image_url: row.preview_image_url,
    player_id: row.player_id,
    publishing_rule_id: row.publishing_rule_id,
    playback_policy: row.playback_policy as ApiAsset['playback_policy'],
    time_restrictions: parseJson<ApiTimeRestrictions>(row.time_restrictions),
    ...(type === 'remote_asset' ? { stream_urls: parseJson<ApiStreamUrls>(row.stream_urls) } : {}),
    ...(isUploadType(type) ? { stream_urls: uploadedStreams(parseJson<ApiStreamUrls>(row.stream_urls), extras.signOriginal) } : {}),
    ...(isUploadType(type) ? { mp4_support: row.mp4_support as ApiAsset['mp4_support'], encryption: row.encryption as ApiAsset['encryption'], processing_progress: row.version_progress ?? row.processing_progress, processing: null, processing_error: row.processing_error, processing_warnings: parseJson<string[]>(row.processing_warnings) ?? [] } : {}),
    ...(type === 'youtube' ? { youtube_id: row.youtube_id } : {}),
    ...(type === 'ad'
      ? { click_url: row.click_url, tracking_pixel_urls: parseJson<string[]>(row.tracking_pixel_urls), disable_seek_for_standalone: row.disable_seek_for_standalone === 1 }
      : {}),
    ...(type === 'remote_asset' ? { is_live_stream: row.is_live_stream === 1 } : {}),
    hosted_at: row.hosted_at,
    closed_captions_url: row.closed_captions_url,
    vr360type: row.vr360type,
    created_at: apiTime(row.created_at) as string,
    updated_at: apiTime(row.updated_at) as string,
    ...extras
  }
}

export function toApiDeletedAsset (row: DeletedAssetsTable): ApiDeletedAsset {
  return {
    embed_code: row.id,
    external_id: row.external_id,
    asset_type: row.asset_type as AssetType,
    name: row.name,
    deleted_at: apiTime(row.deleted_at) as string
  }
}

function parseJson<T> (text: string | null): T | null {
  return text === null ? null : JSON.parse(text) as T
}

/** An uploaded asset's stream URLs: its original signed for the caller, or left out. */
function uploadedStreams (urls: ApiStreamUrls | null, signOriginal: ((url: string) => string) | undefined): ApiStreamUrls | null {
  if (urls === null || typeof urls.source_file !== 'string') return urls
  const { source_file: source, ...rest } = urls
  return signOriginal === undefined ? rest : { ...rest, source_file: signOriginal(source) }
}
