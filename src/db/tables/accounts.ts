/** Accounts (providers): the tenants that own every other row. Migration 0001. */
export interface AccountsTable {
  id: string
  /** Prefixes every API key of the account (`<code>.<random>`). */
  code: string
  name: string
  /** The account's own allowance per minute; null: the global CREDITS_PER_MINUTE. */
  credits_per_minute: number | null
  created_at: string
}

/** Small key/value facts about the installation (e.g. the search mapping version). */
export interface SettingsTable {
  key: string
  value: string
}
