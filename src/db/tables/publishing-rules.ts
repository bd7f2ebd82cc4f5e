/** Publishing rules. Migration 0002. */
export interface PublishingRulesTable {
  id: string
  account_id: string
  name: string
  /** JSON, as text. */
  allowed_devices: string
  time_restrictions: string
  domain_restrictions: string
  geographic_restrictions: string
  /** `public` or `signed` (migration 0018). */
  playback_policy: string
  created_at: string
  updated_at: string
}
