import type { Database } from '../db/index.ts'
import type { createOutboxQueue, OutboxEntry } from '../outbox/index.ts'
import type { SearchStore } from '../search/index.ts'
import { settle, type ResolvedOptions } from './consumer-options.ts'
import { indexEntries } from './index-entries.ts'
import type { IndexMetrics } from './metrics.ts'

export interface BatchDeps {
  database: Pick<Database, 'db' | 'dialect'>
  store: SearchStore
  metrics: IndexMetrics
  queue: ReturnType<typeof createOutboxQueue>
  opts: ResolvedOptions
}

/**
 * Indexes a claimed batch and settles each entry (ack, retry with backoff, or park with its reason):
 * the same for the embedded and the RabbitMQ consumer. Says whether the whole batch failed (the
 * search store or the database is down), with the first error, so the caller pauses instead of parking
 * healthy entries.
 */
export async function indexAndSettle (deps: BatchDeps, owner: string, entries: OutboxEntry[]): Promise<{ outage: boolean, error?: unknown }> {
  const { database, store, metrics, queue, opts } = deps
  const outcomes = await indexEntries({ db: database.db, store, loaders: opts.loaders, metrics, concurrency: opts.concurrency }, entries)
  const now = opts.clock.now()
  const { done, retry, park, outage } = settle(outcomes, opts, now)
  await queue.retry(owner, retry)
  await queue.park(park, now)
  await queue.ack(owner, done)
  await queue.unpark(done)
  metrics.entriesProcessed += entries.length
  for (const { entry } of retry) metrics.failures[entry.type] = (metrics.failures[entry.type] ?? 0) + 1
  for (const { entry, reason } of park) {
    metrics.failures[entry.type] = (metrics.failures[entry.type] ?? 0) + 1
    metrics.parked += 1
    opts.logger.error({ accountId: entry.accountId, type: entry.type, id: entry.id, reason }, 'index entry parked after repeated failures')
  }
  return { outage, error: retry[0]?.error }
}
