import type { Connection, Publisher } from 'rabbitmq-client'
import { systemClock, type Clock } from '../lib/clock.ts'
import { backoffMs, silentLogger, Waker, type BackoffOptions, type WorkerLogger } from './backoff.ts'
import type { OutboxQueue } from './outbox-queue.ts'
import { INDEX_QUEUE, type OutboxEntry } from './outbox-entry.ts'

export interface RelayOptions {
  /** Entries published per round (all in flight at once, then confirmed together). */
  batchSize?: number
  /** How long to wait for new entries when the outbox is empty. */
  idleMs?: number
  /** Entries published this long ago and still not received are published again (their message was lost). */
  republishAfterMs?: number
  backoff?: BackoffOptions
  clock?: Clock
  logger?: WorkerLogger
}

/** Counters for /metrics. */
export interface RelayStats {
  published: number
  failures: number
  connected: boolean
}

export interface AmqpRelay {
  readonly stats: RelayStats
  /** There are new entries: publish now rather than at the next poll. */
  wake: () => void
  /** Publishes one round; the number of entries confirmed. Throws when the broker refused or is away. */
  publishOnce: () => Promise<number>
  /** Stops the loop, then publishes what is left until the outbox is empty or `timeoutMs` passed. True when empty. */
  stop: (timeoutMs?: number) => Promise<boolean>
}

/** The body of every message on the index queue. */
export interface IndexMessage {
  accountId: string
  type: string
  id: string
  attempts: number
  enqueuedAt: string
}

/**
 * Moves outbox entries to the durable RabbitMQ queue: persistent messages, publisher confirms, and
 * an entry is marked published only after its confirm. A broker outage leaves the entries in the
 * outbox, where writes keep adding to them; the relay retries with backoff and nothing is lost.
 */
export function startAmqpRelay (queue: OutboxQueue, connection: Connection, options: RelayOptions = {}): AmqpRelay {
  const batchSize = options.batchSize ?? 500
  const idleMs = options.idleMs ?? 200
  const republishAfterMs = options.republishAfterMs ?? 10 * 60_000
  const backoff = options.backoff ?? { baseMs: 500, maxMs: 30_000 }
  const clock = options.clock ?? systemClock
  const logger = options.logger ?? silentLogger
  const stats: RelayStats = { published: 0, failures: 0, connected: connection.ready }
  const waker = new Waker()
  // Publishing to a queue that was deleted would be confirmed and dropped: `mandatory` makes the
  // broker return such messages, and a returned message counts as not published.
  const returned = new Set<string>()
  const publisher: Publisher = connection.createPublisher({
    confirm: true,
    maxAttempts: 1,
    queues: [{ queue: INDEX_QUEUE, durable: true }]
  })
  publisher.on('basic.return', (msg) => { if (msg.messageId !== undefined) returned.add(msg.messageId) })
  connection.on('connection', () => { stats.connected = true })
  let sequence = 0
  let lastStaleCheck = 0

  async function publish (entries: OutboxEntry[]): Promise<number> {
    const results = await Promise.allSettled(entries.map(async (entry) => {
      const messageId = `${entry.changeId}.${++sequence}`
      const body: IndexMessage = { accountId: entry.accountId, type: entry.type, id: entry.id, attempts: entry.attempts, enqueuedAt: entry.enqueuedAt }
      await publisher.send({ routingKey: INDEX_QUEUE, durable: true, mandatory: true, messageId, contentType: 'application/json' }, body)
      if (returned.delete(messageId)) throw new Error(`queue ${INDEX_QUEUE} is missing: the broker returned the message`)
    }))
    const confirmed = entries.filter((_, i) => results[i].status === 'fulfilled')
    await queue.markPublished(confirmed, clock.now())
    stats.published += confirmed.length
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected')
    if (failed !== undefined) {
      // Declares the queue again for the next round, in case it was deleted under us.
      await connection.queueDeclare({ queue: INDEX_QUEUE, durable: true }).catch(() => {})
      throw failed.reason
    }
    return confirmed.length
  }

  async function publishOnce (): Promise<number> {
    const now = clock.now()
    let entries = await queue.unpublished(now, batchSize)
    if (entries.length < batchSize && now - lastStaleCheck >= Math.min(republishAfterMs, 60_000)) {
      lastStaleCheck = now
      entries = entries.concat(await queue.stalePublished(now - republishAfterMs, batchSize - entries.length))
    }
    return entries.length === 0 ? 0 : await publish(entries)
  }

  let running = true
  let failures = 0
  const loop = (async () => {
    while (running) {
      try {
        const published = await publishOnce()
        if (failures > 0) logger.info({ queue: INDEX_QUEUE }, 'index relay: publishing to RabbitMQ again')
        failures = 0
        stats.connected = true
        if (published < batchSize) await waker.sleep(idleMs)
      } catch (error) {
        failures += 1
        stats.failures += 1
        stats.connected = connection.ready
        // Once per outage, not once per retry.
        if (failures === 1) logger.warn({ err: error, queue: INDEX_QUEUE }, 'index relay: cannot publish to RabbitMQ; entries stay in the outbox and are retried')
        if (running) await waker.sleep(backoffMs(failures, backoff))
      }
    }
  })()

  return {
    stats,
    wake: () => { waker.wake() },
    publishOnce,
    stop: async (timeoutMs = 10_000) => {
      running = false
      waker.wake()
      // With the broker away, a publish in flight only waits to fail and there is nothing to flush:
      // the entries wait in the outbox for the next worker.
      if (connection.ready) await loop
      else await withTimeout(loop, 100).catch(() => {})
      const deadline = Date.now() + (connection.ready ? timeoutMs : 0)
      let empty = false
      while (Date.now() < deadline) {
        try {
          const published = await withTimeout(publishOnce(), deadline - Date.now())
          if (published === 0) { empty = true; break }
        } catch (error) {
          logger.warn({ err: error }, 'index relay: could not flush the outbox at shutdown; the entries stay in it')
          break
        }
      }
      // Closing waits for a channel being set up, which hangs while the broker is away.
      await withTimeout(publisher.close(), 1000).catch(() => {})
      return empty
    }
  }
}

async function withTimeout<T> (promise: Promise<T>, ms: number): Promise<T> {
  // Given up on, the promise may still fail later: that must not become an unhandled rejection.
  promise.catch(() => {})
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([promise, new Promise<never>((_resolve, reject) => { timer = setTimeout(() => { reject(new Error('timed out')) }, Math.max(ms, 1)) })])
  } finally {
    clearTimeout(timer)
  }
}
