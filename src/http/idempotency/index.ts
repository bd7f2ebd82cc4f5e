export { createIdempotencyStore, CLAIM_LEASE_MS, KEY_TTL_MS } from './idempotency-store.ts'
