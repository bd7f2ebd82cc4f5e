/**
 * The event types (docs/webhooks.md, "Events"). `asset.rendition.ready` is reserved for the media worker's
 * per-rendition record; `webhook.test` is sent by `POST /v2/webhooks/:id/test` to that endpoint alone.
 */
export const EVENT_TYPES = [
  'asset.created', 'asset.updated', 'asset.deleted', 'asset.upload.completed', 'asset.playable', 'asset.ready',
  'asset.errored', 'asset.rendition.ready', 'webhook.test'
] as const

export type EventType = typeof EVENT_TYPES[number]

/** An event a write causes: its type and the resource as an administrator saw it then. */
export interface PendingEvent {
  type: EventType
  data: unknown
}

/** The payload a receiver gets, as the body of every attempt. */
export interface EventPayload {
  id: string
  type: string
  created_at: string
  account_id: string
  data: unknown
}
