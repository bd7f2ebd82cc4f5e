import { randomBytes } from 'node:crypto'
import type { Database } from '../db/index.ts'
import { backoffMs, createOutboxQueue, Waker } from '../outbox/index.ts'
import type { SearchStore } from '../search/index.ts'
import { resolveConsumerOptions, type ConsumerOptions } from './consumer-options.ts'
import { indexAndSettle } from './settle-batch.ts'
import { messageOf } from './index-entries.ts'
import type { IndexMetrics } from './metrics.ts'

export interface IndexConsumer {
  readonly running: boolean
  /** Takes one batch and settles it; the number of entries taken. */
  runOnce: () => Promise<number>
  /** Runs batches until the queue has nothing available. */
  drain: () => Promise<number>
  start: () => void
  /** Finishes the batch in hand, then stops. */
  stop: () => Promise<void>
  wake: () => void
}

/**
 * The embedded consumer: the outbox table is the queue. A batch is claimed with a lease, indexed,
 * and acknowledged by deleting each entry only if no change came in while it was indexed; a consumer
 * that dies leaves its lease to expire, and the entries are taken again (at least once).
 */
export function createEmbeddedConsumer (database: Pick<Database, 'db' | 'dialect'>, store: SearchStore, metrics: IndexMetrics, options: ConsumerOptions): IndexConsumer {
  const opts = resolveConsumerOptions(options)
  const queue = createOutboxQueue(database)
  const processToken = randomBytes(6).toString('hex')
  const waker = new Waker()
  let batches = 0
  let running = false
  let loop: Promise<void> | undefined
  let outages = 0

  async function runOnce (): Promise<number> {
    const owner = `${processToken}.${++batches}`
    const entries = await queue.claim(owner, opts.clock.now(), opts.leaseMs, opts.batchSize)
    if (entries.length === 0) return 0
    const { outage, error } = await indexAndSettle({ database, store, metrics, queue, opts }, owner, entries)
    if (outage) {
      outages += 1
      if (outages === 1) opts.logger.warn({ error }, 'indexer: every entry of a batch failed; pausing with backoff')
      await waker.sleep(backoffMs(outages, opts.outageBackoff))
    } else if (outages > 0) {
      opts.logger.info({}, 'indexer: indexing again')
      outages = 0
    }
    return entries.length
  }

  return {
    get running () { return running },
    runOnce,
    drain: async () => {
      let total = 0
      for (let taken = await runOnce(); taken > 0; taken = await runOnce()) total += taken
      return total
    },
    start: () => {
      if (running) return
      running = true
      loop = (async () => {
        let failures = 0
        while (running) {
          try {
            const taken = await runOnce()
            failures = 0
            if (taken === 0) await waker.sleep(opts.idleMs)
          } catch (error) {
            failures += 1
            if (failures === 1) opts.logger.error({ err: error, message: messageOf(error) }, 'indexer: cannot read the outbox; retrying with backoff')
            if (running) await waker.sleep(backoffMs(failures, opts.outageBackoff))
          }
        }
      })()
    },
    stop: async () => {
      running = false
      waker.wake()
      await loop
    },
    wake: () => { waker.wake() }
  }
}
