import type { Kysely } from 'kysely'
import type { ChangeRecord, WriteEffects } from '../db/index.ts'
import type { DB } from '../db/tables/index.ts'
import { storedTime, type Clock } from '../lib/clock.ts'
import { hexId } from '../lib/ids.ts'

/** What a resource's writes mean as events: each resource declares it (`assetEvents`). */
export type EventSource = (trx: Kysely<DB>, accountId: string, records: readonly ChangeRecord[]) => Promise<Array<{ type: string, data: unknown }>>

/**
 * The write effect that records, in the writing transaction, one event row per event its change records
 * cause, and one delivery per enabled endpoint of the account that takes the type (docs/webhooks.md).
 * Never coalesced: two writes make two events.
 */
export function deriveWebhookEvents (sources: readonly EventSource[], clock: Clock): WriteEffects {
  return async (trx, accountId, records) => {
    const events = []
    for (const source of sources) events.push(...await source(trx, accountId, records))
    if (events.length > 0) await recordEvents(trx, accountId, events, clock.now())
  }
}

/**
 * Writes events and their deliveries in the caller's transaction, which holds the account's lock;
 * answers the event ids. `only`: the endpoint a `webhook.test` goes to, enabled or not taking the type.
 * An account's events get strictly increasing `created_at` (a millisecond past the newest when the clock
 * has not moved on): the listen stream reads them in that order and must never pass one by.
 */
export async function recordEvents (trx: Kysely<DB>, accountId: string, events: ReadonlyArray<{ type: string, data: unknown }>, now: number, only?: string): Promise<string[]> {
  let endpoints = trx.selectFrom('webhooks').select(['id', 'events']).where('account_id', '=', accountId)
  endpoints = only === undefined ? endpoints.where('enabled', '=', 1) : endpoints.where('id', '=', only)
  const targets = await endpoints.execute()
  const newest = await trx.selectFrom('webhook_events').select('created_at').where('account_id', '=', accountId)
    .orderBy('created_at', 'desc').limit(1).executeTakeFirst()
  let next = Math.max(now, newest === undefined ? 0 : Date.parse(newest.created_at) + 1)
  // Deliveries are due, and listed, by the clock itself.
  const due = storedTime(now)
  const ids: string[] = []
  for (const event of events) {
    const at = storedTime(next++)
    const id = `evt_${hexId()}`
    ids.push(id)
    await trx.insertInto('webhook_events').values({ id, account_id: accountId, type: event.type, data: JSON.stringify(event.data), created_at: at }).execute()
    const deliveries = targets.filter((t) => only !== undefined || t.events === null || (JSON.parse(t.events) as string[]).includes(event.type))
      .map((t) => ({ id: hexId(), account_id: accountId, webhook_id: t.id, event_id: id, state: 'pending' as const, attempts: 0, next_attempt_at: due, lease_owner: null, lease_until: null, last_status: null, last_error: null, last_latency_ms: null, last_response: null, created_at: due, updated_at: due }))
    if (deliveries.length > 0) await trx.insertInto('webhook_deliveries').values(deliveries).execute()
  }
  return ids
}

/** Several write effects in order, in one transaction. */
export function chainEffects (...effects: WriteEffects[]): WriteEffects {
  return async (trx, accountId, records) => {
    for (const effect of effects) await effect(trx, accountId, records)
  }
}
