import type { Kysely } from 'kysely'
import type { DB, IdempotencyKeysTable } from '../../db/tables/index.ts'
import { storedTime } from '../../lib/clock.ts'
import { hexId } from '../../lib/ids.ts'

/** How long a key is remembered after its request first arrived. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000
/**
 * How long a claim protects a request that is still running. Correctness does not hang on it (the
 * answer is stored only by the request holding the current claim token); it only bounds how long the
 * claim of a process that died blocks the key.
 */
export const CLAIM_LEASE_MS = 60 * 1000

/** Whose key it is: keys of different users never meet. */
export interface KeyOwner {
  accountId: string
  userId: string
  key: string
}

export type ClaimOutcome =
  | { kind: 'claimed', token: string }
  | { kind: 'replay', status: number, body: string }
  | { kind: 'in_use' }
  | { kind: 'mismatch' }

type Row = IdempotencyKeysTable

/**
 * The `idempotency_keys` table. Every function takes the key's owner (account first). `claim` commits
 * on its own; `complete` runs in the caller's transaction, the one that writes.
 */
export function createIdempotencyStore (db: Kysely<DB>) {
  const byOwner = (owner: KeyOwner) => db.selectFrom('idempotency_keys').selectAll()
    .where('account_id', '=', owner.accountId).where('user_id', '=', owner.userId).where('idempotency_key', '=', owner.key)

  /** Replaces an expired row, or the claim of a process that died, if nobody did so meanwhile. */
  async function takeOver (owner: KeyOwner, before: Row, fresh: Row): Promise<boolean> {
    const result = await db.updateTable('idempotency_keys').set(fresh)
      .where('account_id', '=', owner.accountId).where('user_id', '=', owner.userId).where('idempotency_key', '=', owner.key)
      .where('claim_token', '=', before.claim_token)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  return {
    /**
     * Claims the key for a request with this fingerprint, or says why not: the first answer to replay,
     * a live claim of another request, or a key used for a different request.
     */
    async claim (owner: KeyOwner, fingerprint: string, now: number): Promise<ClaimOutcome> {
      // Two rounds at most: a competing request can only win the row once between our reads.
      for (let round = 0; round < 2; round++) {
        const fresh: Row = {
          account_id: owner.accountId,
          user_id: owner.userId,
          idempotency_key: owner.key,
          fingerprint,
          state: 'in_progress',
          claim_token: hexId(),
          lease_until: storedTime(now + CLAIM_LEASE_MS),
          response_status: null,
          response_body: null,
          created_at: storedTime(now),
          expires_at: storedTime(now + KEY_TTL_MS)
        }
        const inserted = await db.insertInto('idempotency_keys').values(fresh)
          .onConflict((oc) => oc.columns(['account_id', 'user_id', 'idempotency_key']).doNothing())
          .executeTakeFirst()
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: 'claimed', token: fresh.claim_token }

        const row = await byOwner(owner).executeTakeFirst()
        if (row === undefined) continue
        const expired = row.expires_at <= fresh.created_at
        if (!expired && row.fingerprint !== fingerprint) return { kind: 'mismatch' }
        if (!expired && row.state === 'completed') return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body ?? '{}' }
        if (!expired && row.lease_until > fresh.created_at) return { kind: 'in_use' }
        // Expired, or claimed by a request whose lease ran out (its process died): start afresh.
        if (await takeOver(owner, row, expired ? fresh : { ...fresh, created_at: row.created_at, expires_at: row.expires_at })) {
          return { kind: 'claimed', token: fresh.claim_token }
        }
      }
      return { kind: 'in_use' }
    },

    /**
     * Stores the answer in the transaction that wrote, if the claim is still ours. False when another
     * request took the claim over: the caller must then roll its write back.
     */
    async complete (trx: Kysely<DB>, owner: KeyOwner, token: string, status: number, body: string): Promise<boolean> {
      const result = await trx.updateTable('idempotency_keys')
        .set({ state: 'completed', response_status: status, response_body: body })
        .where('account_id', '=', owner.accountId).where('user_id', '=', owner.userId).where('idempotency_key', '=', owner.key)
        .where('claim_token', '=', token)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /** Gives the key back after a request that failed before writing anything. */
    async release (owner: KeyOwner, token: string): Promise<void> {
      await db.deleteFrom('idempotency_keys')
        .where('account_id', '=', owner.accountId).where('user_id', '=', owner.userId).where('idempotency_key', '=', owner.key)
        .where('claim_token', '=', token).where('state', '=', 'in_progress')
        .execute()
    },

    /** Deletes the keys whose 24 hours are over; returns how many. */
    async purgeExpired (now: number): Promise<number> {
      const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', storedTime(now)).executeTakeFirst()
      return Number(result.numDeletedRows)
    },

    /** The row of a key, for tests and diagnostics. */
    async find (owner: KeyOwner): Promise<Row | undefined> {
      return await byOwner(owner).executeTakeFirst()
    }
  }
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>
