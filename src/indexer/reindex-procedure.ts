import type { SearchStore } from '../search/index.ts'
import { postJson, probe, readOutbox, readQueueMessages, type Endpoint } from './pending-count.ts'

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
  /** The new indices swapped in, one per account that had an index. */
  rebuilt: string[]
  queued: number
}

/**
 * The re-index procedure of docs/search-and-indexing.md, against whatever is configured: a new index
 * is begun beside each account's live one (every account with an index, or the one account), writes
 * reaching both; `POST /api/reindex` fills them; once the pending count is zero each is swapped in
 * for the live one in one step. Searches read the live indices throughout, so they stay complete.
 * A failure drops the unfinished builds and leaves the live indices as they were.
 */
export async function runReindexProcedure (options: ReindexProcedureOptions): Promise<ReindexResult> {
  const { store, accountId } = options
  await checkPreconditions(options)
  const accounts = accountId === undefined ? await store.indexedAccounts() : [accountId]
  const begun: string[] = []
  const rebuilt: string[] = []
  try {
    for (const account of accounts) {
      rebuilt.push(await store.beginRebuild(account))
      begun.push(account)
    }
    const answer = await postJson(options.indexer, '/api/reindex', accountId === undefined ? {} : { accountId })
    if (answer.status === 404) throw new Error(`account ${accountId ?? ''} does not exist`)
    if (answer.status !== 202) throw new Error(`POST /api/reindex answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    const queued = Number(answer.body.queued)
    options.onProgress?.({ queued, pending: queued })
    await followPending(options, queued)
    for (const account of begun.splice(0)) await store.finishRebuild(account)
    return { rebuilt, queued }
  } finally {
    for (const account of begun) await store.cancelRebuild(account).catch(() => false)
  }
}

/** The account's index name a probe writes and removes: no account id can take it (ids are hex). */
const PROBE_ACCOUNT = 'reindex-probe'

/**
 * Proves every step can run before anything is built: the indexing service answers and takes our
 * credentials, RabbitMQ's management API too (when used), and the search store is reachable and
 * writable (a probe index is created and removed). A reindex that fails here has changed nothing.
 */
async function checkPreconditions (options: ReindexProcedureOptions): Promise<void> {
  const refusal = (name: string, status: number, fix: string): Error =>
    new Error(`${name} refused our credentials (${status}); ${fix}. Nothing was changed.`)
  const unreachable = (name: string, error: unknown): Error => new Error(`${name}: ${(error as Error).message}. Nothing was changed.`)
  let status: number
  try {
    status = await probe(options.indexer, '/ready')
  } catch (error) {
    throw unreachable('the indexing service', error)
  }
  if (status === 401 || status === 403) throw refusal('the indexing service', status, 'set INDEXER_USER and INDEXER_PASSWORD to the pair the indexer runs with')
  if (options.management !== undefined) {
    try {
      status = await probe(options.management, '/api/overview')
    } catch (error) {
      throw unreachable('the RabbitMQ management API', error)
    }
    if (status === 401 || status === 403) throw refusal('the RabbitMQ management API', status, 'check the user and password in RABBITMQ_MANAGEMENT_URL')
  }
  try {
    await options.store.ensureIndex(PROBE_ACCOUNT)
    await options.store.deleteIndex(PROBE_ACCOUNT)
  } catch (error) {
    throw new Error(`the search store is not reachable or not writable: ${(error as Error).message}. Nothing was changed.`)
  }
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
