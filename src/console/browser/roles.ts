import type { UserRole } from 'reelhouse/client'

/** What a role sees in the console; the API decides what it may do (docs/api.md, "Roles"). */
export interface Abilities {
  library: boolean
  /** Upload, and change names, metadata and labels. */
  edit: boolean
  analytics: boolean
  /** The webhook endpoints and their deliveries (administrators only). */
  webhooks: boolean
  /** Publishing rules are read (a rule may make an asset's playback signed). */
  rules: boolean
}

export function abilitiesOf (role: UserRole): Abilities {
  return {
    library: role !== 'analytics_only',
    edit: role === 'administrator' || role === 'manager' || role === 'upload_only',
    analytics: role !== 'upload_only',
    webhooks: role === 'administrator',
    rules: role === 'administrator' || role === 'manager' || role === 'read_only'
  }
}
