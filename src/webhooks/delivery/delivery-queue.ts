import type { ExpressionBuilder } from 'kysely'
import { withRowWrite } from '../../db/account-lock.ts'
import { noteWrite, type Database } from '../../db/index.ts'
import type { DB, WebhooksTable } from '../../db/tables/index.ts'

export interface ClaimedDelivery {
  id: string
  accountId: string
  attempts: number
  event: { id: string, type: string, data: string, created_at: string }
  webhook: Pick<WebhooksTable, 'id' | 'url' | 'enabled' | 'secret' | 'previous_secret' | 'previous_secret_until' | 'failing_since'>
}

/**
 * The deliveries waiting in the database. A worker takes one with a lease (an UPDATE guarded on the
 * state and the lease's end, so exactly one of several workers wins it); a delivery whose worker was
 * killed is taken again when its lease runs out. Not per account: a worker serves every tenant.
 */
export function createDeliveryQueue (database: Database) {
  const db = database.db
  const takeable = (now: string) => (eb: ExpressionBuilder<DB, 'webhook_deliveries'>) => eb.or([
    eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
    eb.and([eb('state', '=', 'delivering'), eb('lease_until', '<', now)])
  ])
  return {
    /** Takes up to `limit` due deliveries for `owner` until `leaseUntil`, counting their attempts: one UPDATE. */
    async claim (owner: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
      const taken = await db.updateTable('webhook_deliveries')
        .set((eb) => ({ state: 'delivering', lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
        .where('id', 'in', db.selectFrom('webhook_deliveries').select('id').where(takeable(now)).orderBy('next_attempt_at').limit(limit))
        .where(takeable(now)).returning('id').execute()
      if (taken.length === 0) return []
      const rows = await db.selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .select(['d.id', 'd.account_id', 'd.attempts', 'd.lease_owner', 'e.id as event_id', 'e.type', 'e.data', 'e.created_at',
          'w.id as webhook_id', 'w.url', 'w.enabled', 'w.secret', 'w.previous_secret', 'w.previous_secret_until', 'w.failing_since'])
        .where('d.id', 'in', taken.map((row) => row.id)).execute()
      return rows.filter((row) => row.lease_owner === owner).map((row) => ({
        id: row.id,
        accountId: row.account_id,
        attempts: Number(row.attempts),
        event: { id: row.event_id, type: row.type, data: row.data, created_at: row.created_at },
        webhook: { id: row.webhook_id, url: row.url, enabled: Number(row.enabled), secret: row.secret, previous_secret: row.previous_secret, previous_secret_until: row.previous_secret_until, failing_since: row.failing_since }
      }))
    },
    /**
     * Records attempts and what follows each: `succeeded`, `failed` for good, or `pending` until
     * `nextAttemptAt`. One transaction per account for the whole batch (a commit per attempt caps a
     * worker at a few dozen a second on SQLite). Each is guarded on its lease: one whose lease ran out
     * (another worker took the delivery) records nothing. A change to an endpoint is a write of its
     * row, told to every process's caches.
     */
    async settle (owner: string, settled: readonly Settled[]): Promise<void> {
      const byAccount = new Map<string, Settled[]>()
      for (const item of settled) byAccount.set(item.delivery.accountId, [...byAccount.get(item.delivery.accountId) ?? [], item])
      for (const [accountId, items] of byAccount) {
        await withRowWrite(database, accountId, async (trx) => {
          const attempts = []
          for (const { delivery, now, outcome } of items) {
            const result = await trx.updateTable('webhook_deliveries').set({
              state: outcome.state,
              next_attempt_at: outcome.nextAttemptAt ?? null,
              lease_owner: null,
              lease_until: null,
              last_status: outcome.status ?? null,
              last_error: outcome.error ?? null,
              last_latency_ms: outcome.latencyMs,
              last_response: outcome.response ?? null,
              updated_at: now
            }).where('id', '=', delivery.id).where('lease_owner', '=', owner).where('state', '=', 'delivering').executeTakeFirst()
            if (Number(result.numUpdatedRows) !== 1) continue
            attempts.push({
              delivery_id: delivery.id, number: delivery.attempts, account_id: accountId, at: now,
              status: outcome.status ?? null, error: outcome.error ?? null, latency_ms: outcome.latencyMs
            })
            if (outcome.endpoint !== undefined) {
              await trx.updateTable('webhooks').set(outcome.endpoint).where('id', '=', delivery.webhook.id).where('account_id', '=', accountId).execute()
              noteWrite(trx, { table: 'webhooks', id: delivery.webhook.id, operation: 'update', columns: Object.keys(outcome.endpoint) })
            }
          }
          if (attempts.length > 0) await trx.insertInto('webhook_attempts').values(attempts).onConflict((oc) => oc.columns(['delivery_id', 'number']).doNothing()).execute()
        })
      }
    }
  }
}

/** One attempt made and what follows it, waiting to be recorded with the rest of its batch. */
export interface Settled { delivery: ClaimedDelivery, now: string, outcome: Settlement }

export interface Settlement {
  state: 'succeeded' | 'failed' | 'pending'
  nextAttemptAt?: string
  status?: number
  error?: string
  response?: string
  latencyMs: number
  /** What changes on the endpoint: its failing streak, or its disabling. */
  endpoint?: Partial<Pick<WebhooksTable, 'enabled' | 'disabled_reason' | 'failing_since' | 'updated_at'>>
}
