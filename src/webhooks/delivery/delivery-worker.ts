import { randomBytes } from 'node:crypto'
import type { Database } from '../../db/index.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import type { SecretBox } from '../../secrets/index.ts'
import { eventBody } from '../payload.ts'
import { signatureHeaders } from '../signing.ts'
import { createDeliveryQueue, type ClaimedDelivery, type Settled, type Settlement } from './delivery-queue.ts'
import { DEFAULT_RETRY_SCHEDULE_MS, DISABLE_AFTER_MS, retryDelay } from './schedule.ts'
import { sendAttempt, type TargetPolicy } from './send.ts'

export interface DeliveryDeps {
  database: Database
  secrets: SecretBox
  clock: Clock
}

export interface DeliveryOptions {
  policy: TargetPolicy
  /** Pauses before each retry (ms); default about 15 attempts over 24 h. Tests shorten it. */
  schedule?: readonly number[]
  /** How long a worker holds a delivery; a killed worker's deliveries are taken again after it (ms). */
  leaseMs?: number
  /** Deliveries in flight at once. */
  concurrency?: number
  /** How often an idle worker looks for due deliveries (ms, real time). */
  pollMs?: number
  logger?: { warn: (obj: object, msg: string) => void }
}

export interface DeliveryWorker {
  owner: string
  /** Looks for due deliveries now (after a write, or a moved clock). */
  wake: () => void
  /** Finishes the attempts in flight and stops. */
  stop: () => Promise<void>
}

/**
 * The webhook delivery of the worker role (docs/webhooks.md, "Delivery"): takes due deliveries with a
 * lease, signs each attempt afresh, sends it, and settles it — a 2xx ends it, 410 disables the endpoint,
 * anything else retries on the schedule until it is used up; an endpoint failing for 3 days is disabled.
 */
export function startWebhookDelivery (deps: DeliveryDeps, options: DeliveryOptions): DeliveryWorker {
  const queue = createDeliveryQueue(deps.database)
  const owner = `webhooks-${randomBytes(6).toString('hex')}`
  const schedule = options.schedule ?? DEFAULT_RETRY_SCHEDULE_MS
  const leaseMs = options.leaseMs ?? 60_000
  const concurrency = options.concurrency ?? 32
  const pollMs = options.pollMs ?? 250
  let stopping = false
  let wakeUp: (() => void) | undefined
  const loop = (async () => {
    while (!stopping) {
      let busy = false
      try {
        const now = deps.clock.now()
        const batch = await queue.claim(owner, storedTime(now), storedTime(now + leaseMs), concurrency)
        busy = batch.length > 0
        // The batch's attempts run at once; their outcomes are recorded together.
        const settled = await Promise.all(batch.map(async (delivery) => await attempt(delivery)))
        if (settled.length > 0) await queue.settle(owner, settled)
      } catch (error) {
        options.logger?.warn({ err: error }, 'webhook delivery: the queue could not be read; trying again')
      }
      if (!busy && !stopping) await new Promise<void>((resolve) => { const timer = setTimeout(resolve, pollMs); wakeUp = () => { clearTimeout(timer); resolve() } })
      wakeUp = undefined
    }
  })()

  async function attempt (delivery: ClaimedDelivery): Promise<Settled> {
    const { webhook } = delivery
    if (webhook.enabled !== 1) {
      return { delivery, now: storedTime(deps.clock.now()), outcome: { state: 'failed', error: 'Not delivered: the endpoint is disabled.', latencyMs: 0 } }
    }
    const sentAt = deps.clock.now()
    const keys = [deps.secrets.decrypt(webhook.secret)]
    if (webhook.previous_secret !== null && webhook.previous_secret_until !== null && webhook.previous_secret_until > storedTime(sentAt)) keys.push(deps.secrets.decrypt(webhook.previous_secret))
    const body = eventBody(delivery.event, delivery.accountId)
    const headers = signatureHeaders(delivery.event.id, Math.floor(sentAt / 1000), body, keys)
    const outcome = await sendAttempt(webhook.url, headers, body, options.policy, () => deps.clock.now())
    const now = deps.clock.now()
    return { delivery, now: storedTime(now), outcome: settlementOf(delivery, outcome, now) }
  }

  function settlementOf (delivery: ClaimedDelivery, outcome: Awaited<ReturnType<typeof sendAttempt>>, now: number): Settlement {
    const answered = { ...(outcome.status !== undefined ? { status: outcome.status } : {}), ...(outcome.error !== undefined ? { error: outcome.error } : {}), ...(outcome.response !== undefined ? { response: outcome.response } : {}), latencyMs: outcome.latencyMs }
    const at = storedTime(now)
    if (outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) {
      return { state: 'succeeded', ...answered, ...(delivery.webhook.failing_since !== null ? { endpoint: { failing_since: null } } : {}) }
    }
    if (outcome.status === 410) {
      return { state: 'failed', ...answered, endpoint: { enabled: 0, disabled_reason: 'The endpoint answered 410 Gone.', updated_at: at } }
    }
    const since = delivery.webhook.failing_since ?? at
    if (now - Date.parse(since) >= DISABLE_AFTER_MS) {
      return { state: 'failed', ...answered, endpoint: { enabled: 0, disabled_reason: `Every delivery failed for 3 days (since ${since.slice(0, 19)}Z).`, updated_at: at } }
    }
    const delay = retryDelay(schedule, delivery.attempts)
    const endpoint = delivery.webhook.failing_since === null ? { endpoint: { failing_since: at } } : {}
    if (delay === undefined) return { state: 'failed', ...answered, ...endpoint }
    return { state: 'pending', nextAttemptAt: storedTime(now + delay), ...answered, ...endpoint }
  }

  return {
    owner,
    wake: () => { wakeUp?.() },
    stop: async () => { stopping = true; wakeUp?.(); await loop }
  }
}
