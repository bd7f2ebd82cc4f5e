/** Webhook endpoints: their routes and service (docs/webhooks.md). */
export { webhooksRoutes } from './webhooks-routes.ts'
export { createWebhooksService, type WebhooksService } from './webhooks-service.ts'
