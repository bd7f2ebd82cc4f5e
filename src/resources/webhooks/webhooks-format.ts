import type { WebhookAttemptsTable } from '../../db/tables/index.ts'
import { apiTime } from '../../lib/clock.ts'
import type { DeliveryRow, WebhookRow } from './webhooks-repository.ts'
import type { ApiDelivery, ApiWebhook } from './webhooks-schemas.ts'

/** The one mapping from a webhooks row to its API shape; the secret never appears in it. */
export function toApiWebhook (row: WebhookRow): ApiWebhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events === null ? null : JSON.parse(row.events) as ApiWebhook['events'],
    description: row.description,
    enabled: Number(row.enabled) === 1,
    disabled_reason: row.disabled_reason,
    created_at: apiTime(row.created_at) as string,
    updated_at: apiTime(row.updated_at) as string
  }
}

/** A delivery row and its attempts as the deliveries list shows them. */
export function toApiDelivery (row: DeliveryRow, attempts: readonly WebhookAttemptsTable[]): ApiDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    state: row.state,
    attempt_count: Number(row.attempts),
    last_status: row.last_status === null ? null : Number(row.last_status),
    last_error: row.last_error,
    latency_ms: row.last_latency_ms === null ? null : Number(row.last_latency_ms),
    next_attempt_at: row.state === 'pending' ? apiTime(row.next_attempt_at) : null,
    last_response: row.last_response,
    attempts: attempts.map((a) => ({ number: Number(a.number), at: apiTime(a.at) as string, status: a.status === null ? null : Number(a.status), error: a.error, latency_ms: Number(a.latency_ms) })),
    created_at: apiTime(row.created_at) as string
  }
}
