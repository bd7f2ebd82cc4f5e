/** Players. Migration 0002. */
export interface PlayersTable {
  id: string
  account_id: string
  name: string
  /** 0/1; at most one 1 per account (partial unique index). */
  is_default: number
  provider_homepage_url: string | null
  provider_name: string
  default_closed_caption_language: string
  /** JSON objects, as text. */
  branding: string
  watermark: string
  playback: string
  /** JSON object of string pairs (`/v2/players/:id/metadata`), as text. */
  metadata: string
  created_at: string
  updated_at: string
}
