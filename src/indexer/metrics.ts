import { INDEXED_TYPES } from '../outbox/index.ts'
import { counter, gauge, type Family } from '../ops/metrics/index.ts'

/**
 * The indexer's counters, kept in the process that does the work. `GET /metrics` adds the queue's
 * gauges (read from the database, so they are true whichever process asks) and renders both in the
 * Prometheus text format.
 * @see https://prometheus.io/docs/instrumenting/exposition_formats/
 */
export class IndexMetrics {
  /** Queue entries taken and settled (indexed, retried or parked). */
  entriesProcessed = 0
  /** Messages dropped because another message for the same resource was in the same batch. */
  entriesCoalesced = 0
  /** Documents written to the search store, upserts and deletions: the number to watch for coalescing. */
  indexWrites = 0
  /** Requests to the search store (one per account and batch unless a batch had to be split). */
  storeRequests = 0
  readonly documentsIndexed = perType()
  readonly documentsRemoved = perType()
  readonly failures = perType()
  parked = 0
  /** Seconds between a change being recorded and its document being written, for the last entry indexed. */
  lastLagSeconds = 0

  /** The families of the counters above. */
  families (): Family[] {
    return [
      counter('reelhouse_index_entries_processed_total', 'Queue entries taken and settled', this.entriesProcessed),
      counter('reelhouse_index_entries_coalesced_total', 'Messages for a resource already in the same batch', this.entriesCoalesced),
      counter('reelhouse_index_writes_total', 'Documents written to the search store (upserts and deletions)', this.indexWrites),
      counter('reelhouse_index_store_requests_total', 'Write requests sent to the search store', this.storeRequests),
      byType('reelhouse_index_documents_indexed_total', 'Documents upserted, by resource type', 'counter', this.documentsIndexed),
      byType('reelhouse_index_documents_removed_total', 'Documents deleted because their resource is gone, by resource type', 'counter', this.documentsRemoved),
      byType('reelhouse_index_failures_total', 'Failed attempts to index an entry, by resource type', 'counter', this.failures),
      counter('reelhouse_index_parked_total', 'Entries parked after their attempts ran out', this.parked),
      gauge('reelhouse_index_lag_seconds', 'Seconds from change to indexed document, for the last entry indexed', this.lastLagSeconds)
    ]
  }
}

export function perType (): Record<string, number> {
  return Object.fromEntries(INDEXED_TYPES.map((type) => [type, 0]))
}

function byType (name: string, help: string, kind: Family['kind'], values: Record<string, number>): Family {
  return { name, help, kind, samples: Object.entries(values).map(([type, value]) => ({ labels: { type }, value })) }
}
