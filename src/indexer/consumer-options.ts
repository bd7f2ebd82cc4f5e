import { systemClock, type Clock } from '../lib/clock.ts'
import { backoffMs, silentLogger, type BackoffOptions, type Failure, type OutboxEntry, type WorkerLogger } from '../outbox/index.ts'
import type { Outcome } from './index-entries.ts'
import type { DocumentLoaders } from './document-loader-registry.ts'

export interface ConsumerOptions {
  /** Entries taken per batch (embedded claim size; RabbitMQ prefetch). */
  batchSize?: number
  /** Loads and store requests in flight at once. */
  concurrency?: number
  /** Embedded: how long a claim holds before another consumer may take the entries. */
  leaseMs?: number
  /** Embedded: how long to wait for entries when the queue is empty. */
  idleMs?: number
  /** Failed attempts after which an entry is parked. */
  maxAttempts?: number
  /** Delay before an entry that failed is tried again. */
  retryBackoff?: BackoffOptions
  /** Pause of the whole consumer while everything fails (database or search store away). */
  outageBackoff?: BackoffOptions
  clock?: Clock
  logger?: WorkerLogger
  /** Which loader reads each resource type's document. */
  loaders: DocumentLoaders
}

export type ResolvedOptions = Required<ConsumerOptions>

export function resolveConsumerOptions (options: ConsumerOptions): ResolvedOptions {
  return {
    batchSize: options.batchSize ?? 500,
    concurrency: options.concurrency ?? 8,
    leaseMs: options.leaseMs ?? 60_000,
    idleMs: options.idleMs ?? 250,
    // With the default backoff, the nine waits between ten failures add up to 4–9 minutes.
    maxAttempts: options.maxAttempts ?? 10,
    retryBackoff: options.retryBackoff ?? { baseMs: 1000, maxMs: 5 * 60_000 },
    outageBackoff: options.outageBackoff ?? { baseMs: 500, maxMs: 30_000 },
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger,
    loaders: options.loaders
  }
}

export interface Settlement {
  done: OutboxEntry[]
  retry: Failure[]
  park: Array<{ entry: OutboxEntry, reason: string }>
  /** Every entry failed and none is to blame: the consumer should pause. */
  outage: boolean
}

/** Sorts outcomes into acks, retries (with their backoff) and entries to park. */
export function settle (outcomes: Outcome[], options: ResolvedOptions, nowMs: number): Settlement {
  const result: Settlement = { done: [], retry: [], park: [], outage: outcomes.length > 0 }
  for (const outcome of outcomes) {
    if (outcome.status === 'done') {
      result.done.push(outcome.entry)
      result.outage = false
      continue
    }
    const { entry, error, attributable } = outcome
    if (attributable) result.outage = false
    if (attributable && entry.attempts + 1 >= options.maxAttempts) {
      result.park.push({ entry, reason: error })
    } else {
      const attempt = attributable ? entry.attempts + 1 : 1
      result.retry.push({ entry, error, counts: attributable, availableAt: nowMs + backoffMs(attempt, options.retryBackoff) })
    }
  }
  return result
}
