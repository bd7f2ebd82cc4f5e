import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../../http/request-types.ts'
import { pageOf, PageQuery } from '../../http/schemas.ts'
import { pageParams, type PageTokens } from '../../paging/index.ts'
import { parts, registerCrudRoutes, SignedOnly, type ResourceRoutes } from '../kit/crud-routes.ts'
import * as S from './webhooks-schemas.ts'
import type { WebhooksService } from './webhooks-service.ts'

const ROUTES = { path: '/v2/webhooks', id: 'webhook_id', area: 'webhooks', tag: 'webhooks', noun: { one: 'webhook', many: 'webhooks' }, errors: S.WebhookErrors, createShowsSecret: true } as const

/** `/v2/webhooks`, the endpoint's secret, test event and deliveries (administrators only). */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService, pageTokens: PageTokens }> = async (app, { webhooks, pageTokens }) => {
  const routes: ResourceRoutes = { ...ROUTES, pageTokens }
  registerCrudRoutes(app, routes, {
    item: S.Webhook,
    created: S.CreatedWebhook,
    create: S.CreateWebhookBody,
    update: S.UpdateWebhookBody,
    replace: false,
    docs: {
      notes: {
        create: 'Answers the signing `secret`, shown only this once; refuses `Idempotency-Key`, so no replay store keeps it. The URL must be `https://` and name a public host (docs/webhooks.md, "Targets").',
        update: '`enabled: true` turns an endpoint the service disabled back on and clears `disabled_reason`.',
        delete: 'Its deliveries go with it.'
      }
    }
  }, { ...webhooks, update: async (caller, id, input) => await webhooks.update(caller, id, input as S.UpdateWebhookInput) })
  const { write, read, one, errors, tags } = parts(routes)
  const deliveryPath = `${one.path}/deliveries/:delivery_id`
  app.post(`${one.path}/secret`, {
    config: { ...write, idempotencyKey: false },
    schema: {
      ...one.schema,
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate a webhook\'s secret',
      description: 'Answers a new secret, shown only this once. The previous secret keeps signing beside it for 24 hours: each attempt carries both signatures. Refuses `Idempotency-Key`.',
      response: { 200: S.RotatedSecret, ...errors }
    }
  }, async (req) => await webhooks.rotateSecret(callerOf(req), one.idOf(req)))
  app.post(`${one.path}/test`, {
    config: write,
    schema: { ...one.schema, operationId: 'testWebhook', summary: 'Send a test event', description: 'Records a `webhook.test` event for this endpoint alone, delivered and signed like any other.', response: { 200: S.TestSent, ...errors } }
  }, async (req) => await webhooks.test(callerOf(req), one.idOf(req)))
  app.get(`${one.path}/deliveries`, {
    config: read,
    schema: { tags, params: one.schema.params, querystring: PageQuery, operationId: 'listWebhookDeliveries', summary: 'List a webhook\'s deliveries', description: 'Newest first, each with its attempts: status codes, errors and latency.', response: { 200: pageOf(S.Delivery), ...errors } }
  }, async (req) => await webhooks.deliveries(callerOf(req), one.idOf(req), pageParams(req, pageTokens)))
  app.post(`${deliveryPath}/retry`, {
    config: write,
    schema: { tags, params: S.DeliveryParams, querystring: SignedOnly, operationId: 'retryWebhookDelivery', summary: 'Retry a delivery', description: 'Makes the delivery due now: one more attempt, with the same `webhook-id`, signed with that attempt\'s time.', response: { 200: S.Delivery, ...errors } }
  }, async (req) => await webhooks.retry(callerOf(req), req.params.webhook_id, req.params.delivery_id))
}
