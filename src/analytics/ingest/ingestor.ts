import { ApiError } from '../../errors/api-error.ts'
import { hexId } from '../../lib/ids.ts'
import type { EventBatch, EventRow } from '../model.ts'
import { segmentStart } from '../report/segments.ts'
import type { AnalyticsStore } from '../store/store.ts'
import { Spool, type SpoolOptions } from './spool.ts'

export interface IngestorOptions extends SpoolOptions {
  /** How often accepted batches are written to the store (default 1 s: reports are fresh within seconds). */
  flushIntervalMs?: number
  /** Flush early once this many rows wait (default 20,000). */
  flushRows?: number
  /**
   * How often the rollup rows of closed hours are merged (default 60 s; docs/analytics.md, "Compaction").
   * The hour under way is left to fill: it is merged once it has ended.
   */
  compactIntervalMs?: number
  /** Refuse new batches (503) while this many rows wait for a store that is down or slow (default 2,000,000). */
  maxQueuedRows?: number
  now?: () => number
  /** Store failures and damaged spool records; ingestion keeps going and retries. */
  onError?: (error: unknown) => void
}

const ROWS_PER_WRITE = 50_000
const BATCH_ID_RETENTION_MS = 30 * 86_400_000

/**
 * Accepts batches durably (spool first, fdatasync, then answer) and moves them into the store in
 * the background, many batches per transaction. On start it replays what the store has not applied.
 */
export class Ingestor {
  private queue: EventBatch[] = []
  private queuedRows = 0
  private flushing: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private closing: Promise<void> | undefined
  private failures = 0
  private lastCompaction = -Infinity
  private compacting: Promise<void> | undefined

  private constructor (
    private readonly store: AnalyticsStore,
    private readonly spool: Spool,
    private readonly options: Required<Pick<IngestorOptions, 'flushIntervalMs' | 'flushRows' | 'compactIntervalMs' | 'maxQueuedRows' | 'now' | 'onError'>>
  ) {}

  /** Opens the spool, replays every batch the store has not applied (before resolving), then starts flushing. */
  static async start (store: AnalyticsStore, spoolDir: string, options: IngestorOptions = {}): Promise<Ingestor> {
    const { spool, batches, damaged } = Spool.open(spoolDir, options)
    const ingestor = new Ingestor(store, spool, {
      flushIntervalMs: options.flushIntervalMs ?? 1000,
      flushRows: options.flushRows ?? 20_000,
      compactIntervalMs: options.compactIntervalMs ?? 60_000,
      maxQueuedRows: options.maxQueuedRows ?? 2_000_000,
      now: options.now ?? Date.now,
      onError: options.onError ?? (() => {})
    })
    if (damaged > 0) ingestor.options.onError(new Error(`analytics spool: skipped ${damaged} damaged record(s) (torn writes that were never acknowledged)`))
    try {
      const applied = new Set<string>()
      for (let i = 0; i < batches.length; i += 1000) {
        for (const id of await store.appliedBatchIds(batches.slice(i, i + 1000).map((b) => b.id))) applied.add(id)
      }
      spool.markApplied(applied)
      for (const batch of batches) if (!applied.has(batch.id)) ingestor.enqueue(batch)
      await ingestor.flush()
      await store.pruneBatchIds(ingestor.options.now() - BATCH_ID_RETENTION_MS)
    } catch (error) {
      await spool.close()
      throw error
    }
    ingestor.schedule()
    return ingestor
  }

  /**
   * Makes the rows durable as one batch and returns its id; resolves only once they are on disk, so
   * the caller may answer 204 right after.
   */
  async accept (rows: EventRow[]): Promise<string> {
    if (this.closed) throw new ApiError('dependency_unavailable', 'Analytics ingestion is shutting down.', undefined, { 'Retry-After': '5' })
    if (this.queuedRows >= this.options.maxQueuedRows) {
      throw new ApiError('dependency_unavailable', 'Analytics ingestion is behind; try again in a few seconds.', undefined, { 'Retry-After': '5' })
    }
    const batch = { id: hexId(), rows }
    await this.spool.append(batch)
    this.enqueue(batch)
    if (this.queuedRows >= this.options.flushRows) void this.flush().catch(() => {})
    return batch.id
  }

  /** Writes every waiting batch to the store now (reports see them afterwards). */
  async flush (): Promise<void> {
    while (this.flushing !== undefined) await this.flushing
    if (this.queue.length === 0) return
    this.flushing = this.writeQueued().finally(() => { this.flushing = undefined })
    await this.flushing
  }

  /** Rows accepted but not yet in the store. */
  get pendingRows (): number { return this.queuedRows }

  /** Stops accepting, writes what waits, and releases the spool. The store stays open. Idempotent. */
  async close (): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    this.closing ??= this.flush().finally(async () => {
      await this.compacting?.catch(() => {})
      await this.spool.close()
    })
    await this.closing
  }

  private enqueue (batch: EventBatch): void {
    this.queue.push(batch)
    this.queuedRows += batch.rows.length
  }

  private async writeQueued (): Promise<void> {
    while (this.queue.length > 0) {
      let rows = 0
      let count = 0
      while (count < this.queue.length && (count === 0 || rows + this.queue[count].rows.length <= ROWS_PER_WRITE)) rows += this.queue[count++].rows.length
      const group = this.queue.slice(0, count)
      await this.store.writeBatches(group, this.options.now())
      this.queue.splice(0, count)
      this.queuedRows -= rows
      this.spool.markApplied(group.map((b) => b.id))
    }
  }

  /**
   * Merges the rollup rows of the hours before the current one, unless that was done less than the
   * interval ago. Resolves when the pass is over; a pass already running is not started twice.
   */
  async compact (): Promise<void> {
    while (this.compacting !== undefined) await this.compacting.catch(() => {})
    const now = this.options.now()
    if (this.closed || now - this.lastCompaction < this.options.compactIntervalMs) return
    this.lastCompaction = now
    this.compacting = this.store.compactRollups(segmentStart(now, 'hour')).then(() => {}).finally(() => { this.compacting = undefined })
    await this.compacting
  }

  /** The background loop; after a failure it backs off (up to 30 s) and keeps the batches queued. */
  private schedule (): void {
    if (this.closed) return
    const delay = Math.min(this.options.flushIntervalMs * 2 ** this.failures, Math.max(30_000, this.options.flushIntervalMs))
    this.timer = setTimeout(() => {
      this.flush().then(async () => {
        this.failures = 0
        await this.compact().catch((error: unknown) => { this.options.onError(error) })
      }, (error: unknown) => {
        this.failures = Math.min(this.failures + 1, 10)
        this.options.onError(error)
      }).finally(() => { this.schedule() })
    }, delay)
    this.timer.unref()
  }
}
