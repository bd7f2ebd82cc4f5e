/** Webhook endpoints. Migration 0012. Secrets are sealed by the SecretBox (src/secrets). */
export interface WebhooksTable {
  id: string
  account_id: string
  url: string
  /** JSON array of event types, as text; null: every type. */
  events: string | null
  description: string
  /** 0/1. */
  enabled: number
  disabled_reason: string | null
  secret: string
  /** The secret before the last rotation, still signing beside the new one until `previous_secret_until`. */
  previous_secret: string | null
  previous_secret_until: string | null
  /** Since when every attempt to this endpoint has failed; null after a success. */
  failing_since: string | null
  created_at: string
  updated_at: string
}

/** One event, written in the transaction of the change that causes it; `data` is JSON text snapshotted then. */
export interface WebhookEventsTable {
  id: string
  account_id: string
  type: string
  data: string
  created_at: string
}

export type WebhookDeliveryState = 'pending' | 'delivering' | 'succeeded' | 'failed'

/** One event for one endpoint. */
export interface WebhookDeliveriesTable {
  id: string
  account_id: string
  webhook_id: string
  event_id: string
  state: WebhookDeliveryState
  attempts: number
  next_attempt_at: string | null
  lease_owner: string | null
  lease_until: string | null
  last_status: number | null
  last_error: string | null
  last_latency_ms: number | null
  /** The first 1 KiB of the last answer's body, kept for public targets only. */
  last_response: string | null
  created_at: string
  updated_at: string
}

/** One attempt of a delivery. */
export interface WebhookAttemptsTable {
  delivery_id: string
  number: number
  account_id: string
  at: string
  status: number | null
  error: string | null
  latency_ms: number
}
