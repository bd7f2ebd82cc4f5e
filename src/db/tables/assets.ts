/** Assets and their parts kept in tables of their own. Migration 0003. */

/** A `bigint` column: a string from PostgreSQL, a number from SQLite; read it through `Number()`. */
export type BigIntColumn = number | string

export interface AssetsTable {
  /** The embed code: 32 URL-safe characters. */
  id: string
  account_id: string
  asset_type: string
  name: string
  description: string
  external_id: string | null
  status: string
  /** What an uploaded asset becomes once processed: `live` or `paused`. */
  post_processing_status: string
  duration: BigIntColumn
  original_file_name: string | null
  file_size: BigIntColumn | null
  chunk_size: BigIntColumn | null
  preview_image_url: string | null
  player_id: string | null
  publishing_rule_id: string | null
  /** `public`, `signed`, or null: the publishing rule's (migration 0018). */
  playback_policy: string | null
  /** JSON of the API object, or null. */
  time_restrictions: string | null
  /** Its start and end dates as stored timestamps, for `where time_restrictions.start_date…`. */
  restriction_start: string | null
  restriction_end: string | null
  /** JSON `{flash, iphone, ipad, itunes, source_file, smooth}` (remote assets). */
  stream_urls: string | null
  youtube_id: string | null
  click_url: string | null
  /** Random, stable for the asset's life: public media URLs are built on it (docs/media.md). */
  media_token: string | null
  /** The processed media version the asset serves, or null before its first rendition is ready. */
  media_version: string | null
  /**
   * 0–100 as the asset's state changes set it (0 when a job begins, 0 or 100 when one fails); while a
   * media version is being made or served, answers show that version's `progress` instead (migration 0009).
   */
  processing_progress: number
  /** Why processing failed, for the person who uploaded the file; null otherwise. */
  processing_error: string | null
  /** What processing noticed without failing: a JSON array of sentences, or null (migration 0010). */
  processing_warnings: string | null
  /** `none` or `standard`: processing also makes the MP4 and M4A downloads. */
  mp4_support: string
  /** `none` or `aes-128`: processing encrypts the segments (migration 0019). */
  encryption: string
  /** The user who created the asset: `upload_only` users see only theirs. */
  created_by: string | null
  created_at: string
  updated_at: string
  /** Where the asset is embedded (a URL), or null. Migration 0006, like the fields below. */
  hosted_at: string | null
  closed_captions_url: string | null
  /** JSON array of the languages to transcribe once the upload completes (migration 0017), or null. */
  generate_captions: string | null
  vr360type: string | null
  /** JSON array of URLs (ads). */
  tracking_pixel_urls: string | null
  /** 0/1 (ads), null when never set. */
  disable_seek_for_standalone: number | null
  /** 0/1 (remote assets), null when never set. */
  is_live_stream: number | null
  /**
   * JSON of what the probe found in the original (duration, container, streams…), written by processing
   * and shown by `source_file_info`; null until probed.
   */
  source_probe: string | null
}

export interface AssetMetadataTable {
  account_id: string
  asset_id: string
  name: string
  value: string
}

export interface AssetLabelsTable {
  account_id: string
  asset_id: string
  label_id: string
}

/** A channel's line-up, one row per place (migration 0013). */
export interface ChannelLineupsTable {
  account_id: string
  /** The channel asset. */
  channel_id: string
  /** 0, 1, 2… in the order the channel plays them. */
  position: number
  /** The asset at that place. */
  asset_id: string
}

export interface DeletedAssetsTable {
  /** The embed code the asset had. */
  id: string
  account_id: string
  asset_type: string
  name: string
  external_id: string | null
  created_by: string | null
  deleted_at: string
  /** When the asset's media files were removed (migration 0008); null while they may remain. */
  media_removed_at: string | null
}
