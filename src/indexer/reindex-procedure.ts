import type { SearchStore } from '../search/index.ts'
import { postJson, readOutbox, readQueueMessages, type Endpoint } from './pending-count.ts'

export interface ReindexProgress {
  queued: number
  /** Entries still to index; undefined while unknown (RabbitMQ's statistics are not there yet). */
  pending: number | undefined
}

export interface ReindexProcedureOptions {
  /** One account (partial re-index); all accounts when undefined. */
  accountId?: string
  store: SearchStore
  indexer: Endpoint
  /** RabbitMQ's management API, when the queue is on RabbitMQ; else the indexer answers the pending count. */
  management?: Endpoint
  pollMs?: number
  /**
   * RabbitMQ samples queue statistics (every 5 s by default) and `messages` lags by about that much:
   * a 0 is trusted only once it was read this long after everything was handed to the broker.
   */
  statsLagMs?: number
  /** Give up (throw) after this long; 0 waits forever. */
  timeoutMs?: number
  onProgress?: (progress: ReindexProgress) => void
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

export interface ReindexResult {
  deleted: string[]
  queued: number
}

/**
 * The re-index procedure of docs/search-and-indexing.md, against whatever is configured: delete the
 * indices (`flex-account*` by name, or the one account's), `POST /api/reindex`, then follow the
 * pending count to zero.
 */
export async function runReindexProcedure (options: ReindexProcedureOptions): Promise<ReindexResult> {
  const { store, accountId } = options
  const deleted = accountId === undefined
    ? await store.deleteAllIndices()
    : (await store.deleteIndex(accountId) ? [store.indexName(accountId)] : [])
  const answer = await postJson(options.indexer, '/api/reindex', accountId === undefined ? {} : { accountId })
  if (answer.status === 404) throw new Error(`account ${accountId ?? ''} does not exist`)
  if (answer.status !== 202) throw new Error(`POST /api/reindex answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  const queued = Number(answer.body.queued)
  options.onProgress?.({ queued, pending: queued })
  await followPending(options, queued)
  return { deleted, queued }
}

async function followPending (options: ReindexProcedureOptions, queued: number): Promise<void> {
  const pollMs = options.pollMs ?? 1000
  const statsLagMs = options.statsLagMs ?? 6000
  const sleep = options.sleep ?? (async (ms: number) => { await new Promise((resolve) => setTimeout(resolve, ms)) })
  const now = options.now ?? Date.now
  const deadline = options.timeoutMs === undefined || options.timeoutMs === 0 ? Infinity : now() + options.timeoutMs
  let handedOverAt: number | undefined
  let errors = 0
  for (;;) {
    let pending: number | undefined
    let done = false
    try {
      if (options.management === undefined) {
        pending = await readQueueMessages(options.indexer)
        done = pending === 0
      } else {
        const { unpublished } = await readOutbox(options.indexer)
        const messages = await readQueueMessages(options.management, { missingIsUnknown: true })
        if (unpublished > 0) handedOverAt = undefined
        else handedOverAt ??= now()
        pending = messages === undefined ? (unpublished > 0 ? unpublished : undefined) : unpublished + messages
        done = unpublished === 0 && messages === 0 && now() - (handedOverAt ?? now()) >= statsLagMs
      }
      errors = 0
    } catch (error) {
      // A restart of the service or the broker between two polls is not the end of the reindex.
      if (++errors >= 10) throw error
    }
    options.onProgress?.({ queued, pending })
    if (done) return
    if (now() > deadline) throw new Error(`still ${pending ?? 'an unknown number of'} entries pending after the timeout`)
    await sleep(pollMs)
  }
}
