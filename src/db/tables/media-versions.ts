/** Processed versions of an asset's media. Migration 0007 (docs/media.md, "State"). */

/**
 * `processing`: being made; `current`: the one the asset serves; `retired`: replaced by a newer one, its
 * files still served to players that started on it until the worker's sweep removes them
 * (MEDIA_RETIRE_AFTER_SECONDS after `updated_at`); `discarded`: abandoned, its files removed.
 */
export type MediaVersionState = 'processing' | 'current' | 'retired' | 'discarded'

export interface MediaVersionsTable {
  account_id: string
  asset_id: string
  /** 128 random bits, base64url: the store folder `…/media/<version>/` and part of every served URL. */
  version: string
  /** The media job that made it. */
  job_id: string
  state: MediaVersionState
  /** Store key of the uploaded original it was made from. */
  original_key: string
  /** JSON of the probe result (`source_file_info`), null until probed. */
  probe: string | null
  /** 1 once `preview.jpg` is stored. */
  has_preview: number
  /** JSON array of `{name, state, width, height, bandwidth, codecs, duration_ms}`, lowest first. */
  renditions: string
  /**
   * 0–100: how far the job making it has come (migration 0009). Progress ticks write only this row, without
   * the account's lock; the asset's answers show it while the version is the one being made or served.
   */
  progress: number
  /** With `encryption: "aes-128"`: the version's content keys, sealed with the master key (migration 0019); null when clear. */
  encryption_keys: string | null
  created_at: string
  updated_at: string
}
