import { randomBytes } from 'node:crypto'
import type { AsyncMessage, Connection, Consumer } from 'rabbitmq-client'
import type { Database } from '../db/index.ts'
import { backoffMs, createOutboxQueue, entryKey, INDEX_QUEUE, type IndexMessage, type OutboxEntry } from '../outbox/index.ts'
import type { SearchStore } from '../search/index.ts'
import { resolveConsumerOptions, type ConsumerOptions } from './consumer-options.ts'
import { indexAndSettle } from './settle-batch.ts'
import type { IndexMetrics } from './metrics.ts'

export interface AmqpConsumerOptions extends ConsumerOptions {
  /** How long the first message of a batch waits for others to join it. */
  lingerMs?: number
}

export interface AmqpIndexConsumer {
  readonly running: boolean
  start: () => void
  /** Stops taking messages; the batch in hand is finished and acknowledged first. */
  stop: () => Promise<void>
}

interface Pending { message: AsyncMessage, resolve: () => void, reject: (error: unknown) => void }

/**
 * The consumer of the RabbitMQ index queue. Messages are gathered into batches and coalesced by
 * resource (the consumer-side half of the deduped queue); the outbox entries they name are leased,
 * indexed and settled exactly as the embedded consumer does, and the messages acknowledged after.
 * The lease is what keeps two consumers (or two batches) from indexing one resource at once, where
 * the older state could be written last; a crash before the ack redelivers, and a lease that runs
 * out makes the relay publish the entry again.
 */
export function createAmqpConsumer (connection: Connection, database: Pick<Database, 'db' | 'dialect'>, store: SearchStore, metrics: IndexMetrics, options: AmqpConsumerOptions): AmqpIndexConsumer {
  const opts = resolveConsumerOptions(options)
  const lingerMs = options.lingerMs ?? 20
  const queue = createOutboxQueue(database)
  const processToken = randomBytes(6).toString('hex')
  let batches = 0
  let pending: Pending[] = []
  let timer: NodeJS.Timeout | undefined
  let outages = 0
  let consumer: Consumer | undefined

  function flush (): void {
    clearTimeout(timer)
    timer = undefined
    const batch = pending
    pending = []
    if (batch.length === 0) return
    processBatch(batch).then(() => { for (const item of batch) item.resolve() }, (error: unknown) => { for (const item of batch) item.reject(error) })
  }

  async function processBatch (batch: Pending[]): Promise<void> {
    const unique = new Map<string, Pick<OutboxEntry, 'accountId' | 'type' | 'id'>>()
    for (const { message } of batch) {
      const key = keyOf(message.body)
      if (key === undefined) opts.logger.error({ body: String(message.body).slice(0, 200) }, 'index queue: dropping a message that names no resource')
      else unique.set(entryKey(key), key)
    }
    metrics.entriesCoalesced += batch.length - unique.size
    const owner = `${processToken}.${++batches}`
    // The row is the work, the message only says where to look: an entry already indexed (gone),
    // held by another consumer or backing off is not taken, and its message is simply acknowledged.
    const entries = await queue.claimKeys(owner, [...unique.values()], opts.clock.now(), opts.leaseMs)
    if (entries.length === 0) return
    const { outage, error } = await indexAndSettle({ database, store, metrics, queue, opts }, owner, entries)
    if (outage) {
      outages += 1
      if (outages === 1) opts.logger.warn({ error }, 'indexer: every entry of a batch failed; pausing with backoff')
      // Holding the batch unacknowledged holds the prefetch: nothing more arrives while paused.
      await new Promise((resolve) => setTimeout(resolve, backoffMs(outages, opts.outageBackoff)))
    } else {
      outages = 0
    }
  }

  function handler (message: AsyncMessage): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      pending.push({ message, resolve, reject })
      if (pending.length >= opts.batchSize) flush()
      else timer ??= setTimeout(flush, lingerMs)
    })
  }

  return {
    get running () { return consumer !== undefined },
    start: () => {
      if (consumer !== undefined) return
      consumer = connection.createConsumer({
        queue: INDEX_QUEUE,
        queueOptions: { durable: true },
        qos: { prefetchCount: opts.batchSize },
        concurrency: opts.batchSize,
        requeue: true
      }, handler)
      consumer.on('error', (error: unknown) => { opts.logger.warn({ err: error }, 'index queue consumer: error (it reconnects by itself)') })
    },
    stop: async () => {
      const current = consumer
      consumer = undefined
      if (current === undefined) return
      flush()
      await current.close()
    }
  }
}

function keyOf (body: unknown): Pick<OutboxEntry, 'accountId' | 'type' | 'id'> | undefined {
  const message = body as Partial<IndexMessage> | null
  if (message === null || typeof message !== 'object') return undefined
  const { accountId, type, id } = message
  if (typeof accountId !== 'string' || typeof type !== 'string' || typeof id !== 'string') return undefined
  return { accountId, type: type as OutboxEntry['type'], id }
}
