/** Users of an account, each with its own API key, secret and role. Migration 0001. */
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
