/** Webhook endpoints: their routes and service (docs/webhooks.md). */
export { webhooksRoutes } from './webhooks-routes.ts'
export { createWebhooksService } from './webhooks-service.ts'
export { eventStreamRoute } from './event-stream.ts'
export { webhookEventsDocument } from './event-schemas.ts'
