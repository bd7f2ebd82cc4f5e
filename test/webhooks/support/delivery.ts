import { setTimeout as sleep } from 'node:timers/promises'
import type { TestApp } from '../../support/app.ts'
import { startWebhookDelivery, type DeliveryOptions, type DeliveryWorker } from '../../../src/webhooks/index.ts'

/** The delivery worker of the worker role, on the test app's database, secrets and manual clock. */
export function deliveryFor (t: TestApp, options: Partial<DeliveryOptions> = {}): DeliveryWorker {
  return startWebhookDelivery({ database: t.ctx.database, secrets: t.ctx.secrets, clock: t.clock }, {
    policy: { allowHttp: true, allowPrivate: true },
    pollMs: 20,
    ...options
  })
}

/** Polls `check` until it answers true (each poll a few ms apart; the test's own timeout bounds it). */
export async function eventually (check: () => Promise<boolean>): Promise<void> {
  while (!await check()) await sleep(15)
}
