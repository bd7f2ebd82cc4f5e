import { exchange, type FetchLike } from '../core/exchange.ts'
import type { RetryPolicy } from '../core/retry.ts'
import type { Transport } from '../core/transport.ts'
import type { EventBatch } from '../generated/analytics.ts'

/** What every event of a session shares: everything in a batch but its events. */
export type EventSession = Omit<EventBatch, 'events'>
export type PlayerEvent = EventBatch['events'][number]

/** The server takes at most this many events per batch (and 1 MiB). */
export const MAX_BATCH_EVENTS = 1000

/**
 * A refused or failed batch is not sent again after a network error, which may have come after the
 * server stored it (it would count twice); a 429 or a 503 stored nothing, so those are waited out.
 */
const COLLECTION: RetryPolicy = { afterNetworkError: false, afterAnswer: (status) => status === 429 || status === 503 }

export interface EventSenderOptions {
  /** `https://…/v2/analytics/events` (or the cached variant's, which takes events too). */
  url: string
  session: EventSession
  /** A client's transport, for its fetch and limits; else `fetch` below. */
  transport?: Transport
  fetch?: FetchLike
}

/**
 * Buffers a session's events and posts them in batches of at most 1,000: `add()` sends on its own
 * when the batch is full, `flush()` sends what is left. A batch that fails stays buffered, so the
 * caller decides whether to `flush()` again or `clear()`.
 * @example
 * const events = client.analytics.events({ account_code: 'acme', session_id: crypto.randomUUID(), asset_id: embedCode })
 * events.add({ name: 'video_start', time: Date.now() })
 * await events.flush()
 */
export class EventBatchSender {
  readonly #options: EventSenderOptions
  #pending: PlayerEvent[] = []

  constructor (options: EventSenderOptions) {
    this.#options = options
  }

  /** Events not sent yet. */
  get pending (): number {
    return this.#pending.length
  }

  async add (...events: PlayerEvent[]): Promise<void> {
    this.#pending.push(...events)
    while (this.#pending.length >= MAX_BATCH_EVENTS) await this.#send(MAX_BATCH_EVENTS)
  }

  async flush (): Promise<void> {
    while (this.#pending.length > 0) await this.#send(Math.min(this.#pending.length, MAX_BATCH_EVENTS))
  }

  clear (): void {
    this.#pending = []
  }

  async #send (count: number): Promise<void> {
    const events = this.#pending.splice(0, count)
    const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...this.#options.session, events }) }
    const { transport, url } = this.#options
    try {
      if (transport !== undefined) await transport.sendUnsigned(url, init, COLLECTION)
      else {
        const fetch = this.#options.fetch ?? ((target: string, request: RequestInit) => globalThis.fetch(target, request))
        await exchange({ fetch, retry: COLLECTION, maxRetries: 2, maxRetryDelay: 60_000, timeout: 60_000, prepare: async () => ({ url, init }) })
      }
    } catch (error) {
      this.#pending.unshift(...events)
      throw error
    }
  }
}
