import { Type, type Static } from 'typebox'
import { described, HexId, SignedErrors, Timestamp } from '../../http/schemas.ts'
import { EVENT_TYPES } from '../../webhooks/index.ts'

const SUBSCRIBABLE = EVENT_TYPES.filter((type) => type !== 'webhook.test')
const EventType = Type.Enum(SUBSCRIBABLE, { description: 'An event type (docs/webhooks.md, "Events")', examples: ['asset.ready'] })
const Events = Type.Union([Type.Array(EventType, { maxItems: SUBSCRIBABLE.length, uniqueItems: true }), Type.Null()], {
  description: 'The event types sent to the endpoint; null: all of them', examples: [['asset.ready', 'asset.errored']]
})
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'Where events are POSTed: an https:// URL of a public host', examples: ['https://example.com/hooks/reelhouse'] })
const Description = Type.String({ maxLength: 1000, pattern: '^[^\\u0000-\\u0008\\u000b-\\u001f\\u007f]*$', description: 'What the endpoint is for; at most 1,000 characters', examples: ['Production'] })
const Secret = Type.String({ description: 'The signing secret, `whsec_` and the base64 of 32 bytes; shown only in this answer', examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6ZzT0o7j9Lg='] })

export const Webhook = Type.Object({
  id: described(HexId, 'The endpoint\'s id', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'),
  url: Url,
  events: Events,
  description: Description,
  enabled: Type.Boolean({ description: 'Whether events are delivered; PATCH `enabled: true` turns a disabled endpoint back on', examples: [true] }),
  disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the service disabled the endpoint (410 Gone, 3 days of failures), or null', examples: [null] }),
  created_at: described(Timestamp, 'When the endpoint was created', '2026-11-22T10:00:00Z'),
  updated_at: described(Timestamp, 'When the endpoint last changed', '2026-11-22T10:05:00Z')
}, { title: 'Webhook', description: 'A webhook endpoint: where the account\'s events are delivered, signed (docs/webhooks.md)' })

export const CreatedWebhook = Type.Object({ ...Webhook.properties, secret: Secret }, {
  title: 'CreatedWebhook', description: 'A new endpoint and its secret, shown only this once'
})
export const RotatedSecret = Type.Object({
  secret: Secret,
  previous_secret_expires_at: described(Timestamp, 'Until when the previous secret keeps signing beside the new one (24 hours)', '2026-11-23T10:00:00Z')
}, { title: 'RotatedWebhookSecret', description: 'The new secret, shown only this once' })

export const CreateWebhookBody = Type.Object({
  url: Url,
  events: Type.Optional(Events),
  description: Type.Optional(Description)
}, { additionalProperties: false })
export const UpdateWebhookBody = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  description: Type.Optional(Description),
  enabled: Type.Optional(Type.Boolean({ description: 'false pauses deliveries; true resumes them and clears disabled_reason', examples: [true] }))
}, { additionalProperties: false })

const Attempt = Type.Object({
  number: Type.Integer({ description: 'Attempt number, from 1', examples: [1] }),
  at: described(Timestamp, 'When the attempt was made', '2026-11-22T10:00:01Z'),
  status: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status the endpoint answered, or null when no answer came', examples: [500] }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why no answer came (never with an internal address), or null', examples: [null] }),
  latency_ms: Type.Integer({ description: 'Milliseconds the attempt took', examples: [84] })
}, { title: 'WebhookAttempt' })

export const Delivery = Type.Object({
  id: described(HexId, 'The delivery\'s id', '9b1d4e7a0c2f4b8e9d6a1c3e5f7b9d0a'),
  event_id: Type.String({ description: 'The event\'s id: the `webhook-id` header of every attempt', examples: ['evt_5e0f3a9b8c7d4e2f9a1b6c3d8e7f0a1b'] }),
  event_type: Type.String({ description: 'The event\'s type', examples: ['asset.ready'] }),
  state: Type.Enum(['pending', 'delivering', 'succeeded', 'failed'], { description: 'pending: waiting for its next attempt; delivering: an attempt in flight; succeeded: a 2xx came; failed: attempts used up, 410, or the endpoint disabled', examples: ['succeeded'] }),
  attempt_count: Type.Integer({ description: 'Attempts made', examples: [1] }),
  last_status: Type.Union([Type.Integer(), Type.Null()], { description: 'The last attempt\'s HTTP status, or null', examples: [200] }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: 'The last attempt\'s error, or null', examples: [null] }),
  latency_ms: Type.Union([Type.Integer(), Type.Null()], { description: 'The last attempt\'s milliseconds, or null', examples: [84] }),
  next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'When the next attempt is due, or null', examples: [null] }),
  last_response: Type.Union([Type.String(), Type.Null()], { description: 'The first 1 KiB of the last answer\'s body; for public targets only, else null', examples: ['ok'] }),
  attempts: Type.Array(Attempt, { description: 'Every attempt, first to last' }),
  created_at: described(Timestamp, 'When the event was recorded for this endpoint', '2026-11-22T10:00:00Z')
}, { title: 'WebhookDelivery', description: 'One event for one endpoint, with its attempts' })

export const TestSent = Type.Object({
  event_id: Type.String({ description: 'The `webhook.test` event\'s id', examples: ['evt_5e0f3a9b8c7d4e2f9a1b6c3d8e7f0a1b'] })
}, { title: 'WebhookTestSent' })

export const WebhookParams = Type.Object({ webhook_id: Type.String({ description: 'The endpoint\'s id', examples: ['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'] }) })
export const DeliveryParams = Type.Object({ ...WebhookParams.properties, delivery_id: Type.String({ description: 'The delivery\'s id', examples: ['9b1d4e7a0c2f4b8e9d6a1c3e5f7b9d0a'] }) })
export const WebhookErrors = SignedErrors

export type ApiWebhook = Static<typeof Webhook>
export type ApiDelivery = Static<typeof Delivery>
export type CreateWebhookInput = Static<typeof CreateWebhookBody>
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>
