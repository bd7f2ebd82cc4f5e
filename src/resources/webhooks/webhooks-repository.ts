import type { Kysely } from 'kysely'
import type { DB, WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../../db/tables/index.ts'
import type { KeyColumn, PageParams } from '../../paging/index.ts'
import type { StoredEvent } from '../../webhooks/index.ts'
import { crudRepository, keysetPage } from '../kit/crud-repository.ts'

export type WebhookRow = WebhooksTable
export type DeliveryRow = WebhookDeliveriesTable & { event_type: string }
/** Where the listen stream is in an account's events: the last one sent, in (created_at, id) order. */
export interface EventCursor { created_at: string, id: string }

/** Newest first: the deliveries list shows the latest at the top. */
export const NEWEST_DELIVERIES: readonly KeyColumn[] = [{ column: 'created_at', direction: 'desc' }, { column: 'id', direction: 'desc' }]

/** Webhook endpoints and their deliveries, of one account. Every function takes the account id first. */
export function createWebhooksRepository (db: Kysely<DB>) {
  return {
    ...crudRepository(db, 'webhooks'),
    async deliveries (accountId: string, webhookId: string, page: PageParams): Promise<DeliveryRow[]> {
      const query = db.selectFrom('webhook_deliveries').innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
        .selectAll('webhook_deliveries').select('webhook_events.type as event_type')
        .where('webhook_deliveries.account_id', '=', accountId).where('webhook_deliveries.webhook_id', '=', webhookId)
      return await keysetPage(query, NEWEST_DELIVERIES.map((k) => ({ ...k, column: `webhook_deliveries.${k.column}` })), page).execute() as DeliveryRow[]
    },
    async delivery (accountId: string, webhookId: string, deliveryId: string, trx: Kysely<DB> = db): Promise<DeliveryRow | undefined> {
      return await trx.selectFrom('webhook_deliveries').innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
        .selectAll('webhook_deliveries').select('webhook_events.type as event_type')
        .where('webhook_deliveries.account_id', '=', accountId).where('webhook_deliveries.webhook_id', '=', webhookId)
        .where('webhook_deliveries.id', '=', deliveryId).executeTakeFirst()
    },
    async attemptsOf (accountId: string, deliveryIds: readonly string[], trx: Kysely<DB> = db): Promise<WebhookAttemptsTable[]> {
      if (deliveryIds.length === 0) return []
      return await trx.selectFrom('webhook_attempts').selectAll().where('account_id', '=', accountId)
        .where('delivery_id', 'in', deliveryIds).orderBy('delivery_id').orderBy('number').execute()
    },
    /** An event of the account, or undefined. */
    async event (accountId: string, eventId: string): Promise<EventCursor | undefined> {
      return await db.selectFrom('webhook_events').select(['created_at', 'id']).where('account_id', '=', accountId).where('id', '=', eventId).executeTakeFirst()
    },
    /** The account's newest event: the listen stream starts after it. */
    async newestEvent (accountId: string): Promise<EventCursor | undefined> {
      return await db.selectFrom('webhook_events').select(['created_at', 'id']).where('account_id', '=', accountId)
        .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst()
    },
    /** Up to `limit` of the account's events after `cursor` (all of them when it is undefined), oldest first. */
    async eventsAfter (accountId: string, cursor: EventCursor | undefined, limit: number): Promise<StoredEvent[]> {
      let query = db.selectFrom('webhook_events').select(['id', 'type', 'data', 'created_at']).where('account_id', '=', accountId)
      if (cursor !== undefined) {
        query = query.where((eb) => eb.or([eb('created_at', '>', cursor.created_at), eb.and([eb('created_at', '=', cursor.created_at), eb('id', '>', cursor.id)])]))
      }
      return await query.orderBy('created_at').orderBy('id').limit(limit).execute()
    },
    /** Makes a delivery due now (a retry asked for); an attempt in flight is left to finish. */
    async retry (accountId: string, deliveryId: string, now: string, trx: Kysely<DB>): Promise<void> {
      await trx.updateTable('webhook_deliveries').set({ state: 'pending', next_attempt_at: now, updated_at: now })
        .where('account_id', '=', accountId).where('id', '=', deliveryId).where('state', '!=', 'delivering').execute()
    }
  }
}
