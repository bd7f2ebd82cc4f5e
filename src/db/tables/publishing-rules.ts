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
  created_at: string
  updated_at: string
}
