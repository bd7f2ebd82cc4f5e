/** Webhooks: events recorded with the writes that cause them, signed and delivered by the worker role (docs/webhooks.md). */
export { EVENT_TYPES } from './events.ts'
export { newWebhookSecret } from './signing.ts'
export { deriveWebhookEvents, recordEvents, chainEffects } from './derive-events.ts'
export { startWebhookDelivery, type DeliveryWorker, type DeliveryOptions } from './delivery/delivery-worker.ts'
export { staticRefusal, type Resolver, type Connector } from './delivery/send.ts'
export { eventBody, type StoredEvent } from './payload.ts'
