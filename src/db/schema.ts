/**
 * Table types for Kysely. Each concern declares its own tables next to its code by augmenting this
 * interface (`declare module '../db/schema.ts' { interface DB { … } }`), so no file lists them all.
 * Conventions, identical on SQLite and PostgreSQL: ids are text; timestamps are ISO 8601 UTC text with
 * milliseconds (they sort as text); booleans are integers 0/1; JSON is text.
 */
export interface DB {
  accounts: AccountsTable
  users: UsersTable
  settings: SettingsTable
}

export interface AccountsTable {
  id: string
  code: string
  name: string
  credits_per_minute: number | null
  created_at: string
}

export interface UsersTable {
  id: string
  account_id: string
  api_key: string
  /** AES-256-GCM ciphertext of the 40-character secret (see src/secrets). */
  secret_enc: string
  name: string
  role: string
  created_at: string
  updated_at: string
}

/** Small key/value facts about the installation (e.g. the search mapping version). */
export interface SettingsTable {
  key: string
  value: string
}
