/** Playback keys (migration 0018): the public half of a key signing playback tokens. */
export interface PlaybackKeysTable {
  id: string
  account_id: string
  /** `EdDSA` or `RS256`. */
  algorithm: string
  /** The public key as a JWK, JSON text. */
  public_jwk: string
  /** 0/1: the key the service holds for the account (its private key sealed by the SecretBox). */
  managed: number
  private_key: string | null
  created_at: string
  updated_at: string
  /** When DELETE revoked it; a revoked key verifies nothing. */
  revoked_at: string | null
}
