import type { Caller } from '../../auth/caller.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import type { Database } from '../../db/index.ts'
import { ApiError } from '../../errors/api-error.ts'
import { apiTime, storedTime, type Clock } from '../../lib/clock.ts'
import { hexId } from '../../lib/ids.ts'
import { toPage, type Page, type PageParams } from '../../paging/index.ts'
import type { SecretBox } from '../../secrets/index.ts'
import { eventBody, newWebhookSecret, recordEvents, staticRefusal } from '../../webhooks/index.ts'
import { BY_CREATION, positionIn } from '../kit/crud-repository.ts'
import { finder } from '../kit/finder.ts'
import { toApiDelivery, toApiWebhook } from './webhooks-format.ts'
import { createWebhooksRepository, NEWEST_DELIVERIES, type DeliveryRow, type EventCursor, type WebhookRow } from './webhooks-repository.ts'
import type { ApiDelivery, ApiWebhook, CreateWebhookInput, UpdateWebhookInput } from './webhooks-schemas.ts'

export interface WebhooksDeps {
  database: Database
  clock: Clock
  secrets: SecretBox
  /** WEBHOOKS_ALLOW_HTTP and WEBHOOKS_ALLOW_PRIVATE: what a target URL may be. */
  targets: { allowHttp: boolean, allowPrivate: boolean }
}

/** The previous secret keeps signing beside a rotated one this long. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

/**
 * Webhook endpoints (docs/webhooks.md). Secrets are sealed at rest by the SecretBox and shown once, in the
 * answer that makes them; no log line and no replay store holds them (the routes refuse Idempotency-Key).
 */
export function createWebhooksService ({ database, clock, secrets, targets }: WebhooksDeps) {
  const webhooks = createWebhooksRepository(database.db)
  const find = finder(webhooks, (id) => new ApiError('webhook_not_found', `Webhook ${id} does not exist.`))
  const position = positionIn<WebhookRow>(BY_CREATION)

  function checkedUrl (url: string): string {
    let parsed: URL
    try { parsed = new URL(url) } catch { throw new ApiError('webhook_target_refused', 'Field url must be an absolute URL.') }
    const refused = staticRefusal(parsed, targets)
    if (refused !== undefined) throw new ApiError('webhook_target_refused', `Field url is refused: ${refused}.`)
    return parsed.href
  }

  return {
    async list (caller: Caller, page: PageParams): Promise<Page<ApiWebhook>> {
      return toPage(await webhooks.page(caller.accountId, page), page, position, toApiWebhook)
    },
    async get (caller: Caller, id: string): Promise<ApiWebhook> {
      return toApiWebhook(await find(caller.accountId, id))
    },
    async create (caller: Caller, input: CreateWebhookInput): Promise<ApiWebhook & { secret: string }> {
      const now = storedTime(clock.now())
      const secret = newWebhookSecret()
      const row: WebhookRow = {
        id: hexId(), account_id: caller.accountId, url: checkedUrl(input.url), events: input.events === undefined || input.events === null ? null : JSON.stringify(input.events),
        description: input.description ?? '', enabled: 1, disabled_reason: null, secret: secrets.encrypt(secret), previous_secret: null,
        previous_secret_until: null, failing_since: null, created_at: now, updated_at: now
      }
      return await withAccountLock(database, caller.accountId, async (trx) => {
        await webhooks.insert(caller.accountId, row, trx)
        return { ...toApiWebhook(row), secret }
      })
    },
    async update (caller: Caller, id: string, input: UpdateWebhookInput): Promise<ApiWebhook> {
      const url = input.url === undefined ? undefined : checkedUrl(input.url)
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller.accountId, id, trx)
        const changes: Partial<WebhookRow> = { updated_at: storedTime(clock.now()) }
        if (url !== undefined) changes.url = url
        if (input.events !== undefined) changes.events = input.events === null ? null : JSON.stringify(input.events)
        if (input.description !== undefined) changes.description = input.description
        if (input.enabled === true) Object.assign(changes, { enabled: 1, disabled_reason: null, failing_since: null })
        if (input.enabled === false) Object.assign(changes, { enabled: 0, disabled_reason: null })
        await webhooks.update(caller.accountId, before.id, changes, trx)
        return toApiWebhook({ ...before, ...changes })
      })
    },
    /** Deletes the endpoint; its deliveries and their attempts go with it (foreign keys cascade). */
    async remove (caller: Caller, id: string): Promise<Record<string, never>> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const webhook = await find(caller.accountId, id, trx)
        await webhooks.delete(caller.accountId, webhook.id, trx)
        return {}
      })
    },
    /** A new secret; the current one keeps signing beside it for 24 hours (receivers switch without a gap). */
    async rotateSecret (caller: Caller, id: string): Promise<{ secret: string, previous_secret_expires_at: string }> {
      const now = clock.now()
      const secret = newWebhookSecret()
      const until = storedTime(now + ROTATION_OVERLAP_MS)
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller.accountId, id, trx)
        await webhooks.update(caller.accountId, before.id, { secret: secrets.encrypt(secret), previous_secret: before.secret, previous_secret_until: until, updated_at: storedTime(now) }, trx)
        return { secret, previous_secret_expires_at: apiTime(until) as string }
      })
    },
    /** Sends a `webhook.test` event to this endpoint alone, delivered like any other. */
    async test (caller: Caller, id: string): Promise<{ event_id: string }> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const webhook = await find(caller.accountId, id, trx)
        const [eventId] = await recordEvents(trx, caller.accountId, [{ type: 'webhook.test', data: { webhook_id: webhook.id, url: webhook.url } }], clock.now(), webhook.id)
        return { event_id: eventId as string }
      })
    },
    async deliveries (caller: Caller, id: string, page: PageParams): Promise<Page<ApiDelivery>> {
      const webhook = await find(caller.accountId, id)
      const rows = await webhooks.deliveries(caller.accountId, webhook.id, page)
      const attempts = await webhooks.attemptsOf(caller.accountId, rows.slice(0, page.limit).map((row) => row.id))
      return toPage(rows, page, positionIn<DeliveryRow>(NEWEST_DELIVERIES), (row) => toApiDelivery(row, attempts.filter((a) => a.delivery_id === row.id)))
    },
    /**
     * Where the listen stream starts: after the event `after` names (which must be the account's), or
     * after the account's newest event, so that only what happens from now on is sent.
     */
    async streamStart (caller: Caller, after: string | undefined): Promise<EventCursor | undefined> {
      if (after === undefined) return await webhooks.newestEvent(caller.accountId)
      const event = await webhooks.event(caller.accountId, after)
      if (event === undefined) throw new ApiError('webhook_event_not_found', `Event ${after} does not exist.`)
      return event
    },
    /** The next events after `cursor`, oldest first, each with its body as deliveries send it. */
    async eventsAfter (caller: Caller, cursor: EventCursor | undefined, limit: number): Promise<Array<{ cursor: EventCursor, type: string, body: string }>> {
      const events = await webhooks.eventsAfter(caller.accountId, cursor, limit)
      return events.map((event) => ({ cursor: { created_at: event.created_at, id: event.id }, type: event.type, body: eventBody(event, caller.accountId) }))
    },
    /** Makes the delivery due now: one more attempt, signed with that attempt's time. */
    async retry (caller: Caller, id: string, deliveryId: string): Promise<ApiDelivery> {
      const now = storedTime(clock.now())
      // The transaction's result is the answer itself: an Idempotency-Key stores it with the write.
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const webhook = await find(caller.accountId, id, trx)
        const delivery = await webhooks.delivery(caller.accountId, webhook.id, deliveryId, trx)
        if (delivery === undefined) throw new ApiError('webhook_delivery_not_found', `Delivery ${deliveryId} of webhook ${webhook.id} does not exist.`)
        await webhooks.retry(caller.accountId, delivery.id, now, trx)
        const row = await webhooks.delivery(caller.accountId, webhook.id, delivery.id, trx) as DeliveryRow
        return toApiDelivery(row, await webhooks.attemptsOf(caller.accountId, [row.id], trx))
      })
    }
  }
}

export type WebhooksService = ReturnType<typeof createWebhooksService>
