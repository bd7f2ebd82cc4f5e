import type { AppContext } from '../app/context.ts'
import { createLogger } from '../http/logging.ts'
import { startWebhookDelivery, type DeliveryWorker } from '../webhooks/index.ts'

/** The webhook half of the worker role (docs/webhooks.md, "Delivery"): signs and delivers recorded events. */
export function startWebhooksRole (ctx: AppContext): DeliveryWorker {
  const { config } = ctx
  return startWebhookDelivery({ database: ctx.database, secrets: ctx.secrets, clock: ctx.clock }, {
    policy: { allowHttp: config.webhooksAllowHttp, allowPrivate: config.webhooksAllowPrivate },
    ...(config.webhooksRetryScheduleMs !== undefined ? { schedule: config.webhooksRetryScheduleMs } : {}),
    leaseMs: config.webhooksLeaseSeconds * 1000,
    logger: createLogger(config, { name: 'webhooks' })
  })
}
