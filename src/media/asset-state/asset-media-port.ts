import type { ProbeResult } from '../processing/index.ts'

/** One rendition of a media version as `GET /v2/assets/:id/streams` shows it; stored with the version. */
export interface StreamState {
  name: string
  kind: 'video' | 'audio'
  state: 'pending' | 'processing' | 'ready' | 'failed'
  width: number | null
  height: number | null
  /**
   * Peak and mean bit rate (bits/s): measured on the segments written once ready; while it grows, from
   * when it enters the master, the larger of its encoder's peak and what its segments measured so far;
   * null before.
   */
  bandwidth: number | null
  average_bandwidth: number | null
  codecs: string
  duration_ms: number | null
  /** The rendition has its lead of segments in the store (or is complete): the master playlist names it. */
  in_master?: boolean
}

/** The job the worker is running, as the asset side needs to know it. */
export interface MediaJobRef {
  accountId: string
  assetId: string
  jobId: string
  kind: 'ingest' | 'replacement'
  originalKey: string
}

/**
 * What the worker asks of the assets resource. Every state change is one transaction under the account's
 * lock whose index update follows from it (the write → outbox → index path of API writes), and answers
 * null when the asset is gone (deleted meanwhile): the worker then stops and removes its files. A
 * progress tick is one write on the version's own row, without the lock, the outbox or `updated_at`.
 */
export interface MediaAssets {
  /**
   * Records a new version being made; answers the asset's other versions whose files are leftovers to
   * remove, whether it asks for downloads and, for an encrypted asset, the version's secret (its segments'
   * keys come from it; it is sealed in the version's row).
   */
  begin: (job: MediaJobRef, version: string) => Promise<{ leftovers: string[], downloads: boolean, encryption: Buffer | null } | null>
  saveProbe: (job: MediaJobRef, version: string, probe: ProbeResult, streams: StreamState[]) => Promise<boolean>
  /** Stores the renditions' states and the version's progress (0–100, the asset's processing_progress); false when the version is gone. */
  saveProgress: (job: MediaJobRef, version: string, streams: StreamState[], progress: number) => Promise<boolean>
  /**
   * Makes `version` the one the asset serves: `live` or `paused` (post_processing_status) for a new
   * asset, unchanged for a replacement; stream_urls, preview_image_url and duration filled. Answers the
   * versions it replaced: they are retired (their originals are to be removed; their renditions stay
   * for players that started on them, until `retiredBefore` names them to the sweep).
   */
  publish: (job: MediaJobRef, version: string, details: { durationMs: number, hasPreview: boolean, hasStoryboard?: boolean }) => Promise<{ replaced: Array<{ version: string, originalKey: string }> } | null>
  /**
   * The whole ladder of `version` is made: the asset's `duration` becomes what its renditions play and
   * `processing_warnings` says what was noticed (a file cut short); the downloads made join
   * `stream_urls`. False when the version is gone.
   */
  finish: (job: MediaJobRef, version: string, details: { durationMs: number, warnings: string[], downloads?: { mp4: boolean, m4a: boolean } }) => Promise<boolean>
  /** The version did not come to be: an asset without playable media ends `error` with `reason`. */
  fail: (job: MediaJobRef, version: string | null, reason: string) => Promise<void>
  /** Forgets versions whose files were removed. */
  forget: (job: Pick<MediaJobRef, 'accountId' | 'assetId'>, versions: string[]) => Promise<void>
  /** Deleted assets (of every account) whose media files may remain, deleted before `cutoff`: the sweep removes them. */
  deletedWithMedia: (cutoff: string, limit: number) => Promise<Array<{ accountId: string, assetId: string }>>
  /** Records that a deleted asset's media files are removed. */
  markMediaRemoved: (accountId: string, assetId: string) => Promise<void>
  /** Versions retired before `cutoff` (an ISO time), of every account, oldest first: the sweep removes them. */
  retiredBefore: (cutoff: string, limit: number) => Promise<Array<{ accountId: string, assetId: string, version: string }>>
}
