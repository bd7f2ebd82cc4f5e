/** An asset's caption tracks. Migration 0017. */

export interface AssetCaptionsTable {
  account_id: string
  asset_id: string
  /** A BCP 47 tag, canonical (`en`, `pt-BR`). */
  language: string
  name: string
  /** What was uploaded: `dfxp`, `webvtt` or `srt`. */
  format: string
  /** 0/1: made by a speech-recognition engine. */
  auto_generated: number
  engine: string | null
  /** The body as uploaded. */
  original: string
  /** The track rendered as WebVTT. */
  webvtt: string
  cue_count: number
  created_at: string
  updated_at: string
}
