/** `Idempotency-Key` claims and answers (migration 0005): see src/http/idempotency and docs/api.md. */

/**
 * One key a caller sent with a POST or PATCH. The row is claimed (`in_progress`, with a lease) before
 * the handler runs, in its own committed statement, and becomes `completed` with the answer in the same
 * transaction as the write the request made: a repeated request is answered from here, in any process.
 */
export interface IdempotencyKeysTable {
  account_id: string
  user_id: string
  idempotency_key: string
  /** SHA-256 (hex) of the method, path, query (without the signing parameters) and body. */
  fingerprint: string
  state: 'in_progress' | 'completed'
  /** Changes with every claim: only the request holding the current token may complete or release it. */
  claim_token: string
  /** An `in_progress` claim older than this belongs to a process that died: another request may take it over. */
  lease_until: string
  response_status: number | null
  /** The answer's body exactly as it was sent, encrypted like user secrets (it may hold a new user's secret). */
  response_body: string | null
  created_at: string
  /** 24 hours after the claim: the key is forgotten (and purged) after this. */
  expires_at: string
}
