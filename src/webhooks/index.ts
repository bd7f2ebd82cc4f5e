/** Webhooks: events recorded with the writes that cause them, signed and delivered by the worker role (docs/webhooks.md). */
export { EVENT_TYPES, type EventType, type EventPayload } from './events.ts'
export { newWebhookSecret, signatureHeaders } from './signing.ts'
export { deriveWebhookEvents, recordEvents, chainEffects, type EventSource } from './derive-events.ts'
export { startWebhookDelivery, type DeliveryWorker, type DeliveryOptions } from './delivery/delivery-worker.ts'
export { staticRefusal, type Resolver, type Connector, type TargetPolicy } from './delivery/send.ts'
export { forbiddenReason } from './delivery/address-policy.ts'
export { DEFAULT_RETRY_SCHEDULE_MS } from './delivery/schedule.ts'
