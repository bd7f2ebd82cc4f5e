import type { Config } from '../config/index.ts'
import type { Database } from '../db/index.ts'
import { createOutboxQueue, INDEX_QUEUE } from '../outbox/index.ts'
import { outdatedIndices, type SearchStore } from '../search/index.ts'
import { counter, gauge, renderMetrics, type MetricsRegistry } from '../ops/metrics/index.ts'
import type { IndexMetrics } from './metrics.ts'
import { queueReindex } from './reindex.ts'
import type { IndexWorker } from './worker.ts'

/** What the indexing service works with; an AppContext plus the search store and the worker provide it. */
export interface IndexerDeps {
  config: Pick<Config, 'amqpUrl'>
  database: Pick<Database, 'db' | 'dialect'>
  store: SearchStore
  metrics: IndexMetrics
  /**
   * The figures of the whole process (memory, caches, the worker's counters when it runs here): served
   * with the queue's gauges, so the indexer's port shows what METRICS_PORT would.
   */
  processMetrics?: Pick<MetricsRegistry, 'families'>
  /** The worker of this process, when it runs one (told to start at once when work is queued). */
  worker?: IndexWorker
}

/** The indexing service's operations, one per route. */
export function createIndexerService (deps: IndexerDeps) {
  const queue = createOutboxQueue(deps.database)
  const embedded = deps.config.amqpUrl === undefined
  let outdated: { at: number, count: number } | undefined

  async function outdatedCount (): Promise<number> {
    if (outdated === undefined || Date.now() - outdated.at > 30_000) {
      outdated = { at: Date.now(), count: (await outdatedIndices(deps.store)).length }
    }
    return outdated.count
  }

  return {
    embedded,

    async reindex (accountId: string | undefined): Promise<{ queued: number }> {
      const queued = await queueReindex({ db: deps.database.db, dialect: deps.database.dialect }, accountId)
      deps.worker?.wake()
      return { queued }
    },

    /** The embedded queue in the shape of RabbitMQ's management API; `messages` is the pending count. */
    async queueStatus () {
      const counts = await queue.counts(Date.now())
      return {
        name: INDEX_QUEUE,
        vhost: '/',
        durable: true,
        auto_delete: false,
        type: 'classic',
        state: 'running',
        consumers: deps.worker?.consuming === true ? 1 : 0,
        messages: counts.entries,
        messages_ready: counts.entries - counts.leased,
        messages_unacknowledged: counts.leased,
        reelhouse: { delayed: counts.delayed, parked: counts.parked, oldest_enqueued_at: counts.oldestEnqueuedAt }
      }
    },

    async outboxStatus () {
      const counts = await queue.counts(Date.now())
      return {
        queue: embedded ? 'embedded' as const : 'rabbitmq' as const,
        entries: counts.entries,
        unpublished: embedded ? 0 : counts.entries - counts.published,
        published: counts.published,
        leased: counts.leased,
        delayed: counts.delayed,
        parked: counts.parked,
        oldest_enqueued_at: counts.oldestEnqueuedAt
      }
    },

    async parked (accountId: string | undefined) {
      const rows = await queue.parked(accountId)
      return { items: rows.map((row) => ({ ...row, attempts: Number(row.attempts) })) }
    },

    /** Prometheus text: this process's counters and the queue's gauges. */
    async metricsText (): Promise<string> {
      const counts = await queue.counts(Date.now())
      const oldest = counts.oldestEnqueuedAt === null ? 0 : Math.max(0, (Date.now() - Date.parse(counts.oldestEnqueuedAt)) / 1000)
      const relay = deps.worker?.relay?.stats
      return renderMetrics([
        gauge('reelhouse_index_queue_depth', 'Entries waiting to be indexed (embedded: the queue; RabbitMQ: the outbox side)', counts.entries),
        gauge('reelhouse_index_queue_leased', 'Entries claimed by a consumer', counts.leased),
        gauge('reelhouse_index_queue_unpublished', 'RabbitMQ: entries not yet handed to the broker', embedded ? 0 : counts.entries - counts.published),
        gauge('reelhouse_index_queue_delayed', 'Entries waiting out a retry backoff', counts.delayed),
        gauge('reelhouse_index_parked', 'Entries parked after repeated failures', counts.parked),
        gauge('reelhouse_index_oldest_entry_age_seconds', 'Age of the oldest change not yet indexed', oldest),
        gauge('reelhouse_index_outdated_indices', 'Indices written with another mapping version (reindex required when > 0)', await outdatedCount().catch(() => -1)),
        ...(deps.processMetrics === undefined ? deps.metrics.families() : await deps.processMetrics.families()),
        ...(relay === undefined
          ? []
          : [
              counter('reelhouse_outbox_published_total', 'Entries published to RabbitMQ and confirmed', relay.published),
              counter('reelhouse_outbox_publish_failures_total', 'Relay rounds that failed (broker away or refusing)', relay.failures),
              gauge('reelhouse_outbox_broker_connected', '1 while the relay reaches RabbitMQ', relay.connected ? 1 : 0)
            ])
      ])
    }
  }
}

export type IndexerService = ReturnType<typeof createIndexerService>
