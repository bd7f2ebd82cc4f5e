import { exchange, type FetchLike } from '../core/exchange.ts'
import { retryPolicy } from '../core/retry.ts'
import type { QueueStatus, Reindexed, ReindexParams } from '../generated/indexing.ts'

/** The index queue's name, as the indexing service and RabbitMQ's management API both know it. */
export const INDEX_QUEUE = 'flex.indexelastic.indexdeduped.queue'

export interface IndexingServiceOptions {
  /**
   * The indexing service, `http://127.0.0.1:9400` by default. Basic-auth credentials may be in the
   * URL (`http://user:password@host:9400`) or given below.
   */
  baseUrl: string
  username?: string
  password?: string
  /**
   * RabbitMQ's management API (`http://guest:guest@127.0.0.1:15672`), when the index queue is on
   * RabbitMQ: the pending count is asked there. Without it the indexing service answers.
   */
  managementUrl?: string
  fetch?: FetchLike
  /** Per request, in ms. Default 30,000. */
  timeout?: number
}

/**
 * The internal indexing service (docs/search-and-indexing.md): queue a reindex, read how much is
 * still pending. No signing: it listens on loopback, with basic auth when INDEXER_USER is set.
 * @example
 * const indexing = new IndexingService({ baseUrl: 'http://127.0.0.1:9400' })
 * await indexing.reindex({ accountId })
 * while (await indexing.queueDepth() > 0) await new Promise((resolve) => setTimeout(resolve, 1000))
 */
export class IndexingService {
  readonly #indexer: Target
  readonly #queue: Target
  readonly #fetch: FetchLike
  readonly #timeout: number

  constructor (options: IndexingServiceOptions) {
    this.#indexer = target(options.baseUrl, options.username, options.password)
    this.#queue = options.managementUrl === undefined ? this.#indexer : target(options.managementUrl)
    this.#fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init))
    this.#timeout = options.timeout ?? 30_000
  }

  /** Queues every resource of one account (`{ accountId }`) or of every account (`{}`). */
  async reindex (params: ReindexParams = {}): Promise<Reindexed> {
    const answer = await this.#call(this.#indexer, 'POST', '/api/reindex', JSON.stringify(params))
    return JSON.parse(answer) as Reindexed
  }

  /** The index queue as its management API describes it; `messages` is the pending count. */
  async queueStatus (): Promise<QueueStatus> {
    return JSON.parse(await this.#call(this.#queue, 'GET', `/api/queues/%2F/${INDEX_QUEUE}`)) as QueueStatus
  }

  /** Index updates not yet applied. */
  async queueDepth (): Promise<number> {
    return (await this.queueStatus()).messages
  }

  async #call (to: Target, method: string, path: string, body?: string): Promise<string> {
    const headers: Record<string, string> = { accept: 'application/json', ...to.headers }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const answer = await exchange({
      fetch: this.#fetch,
      // A reindex queues work that coalesces per resource, so sending it twice is harmless.
      retry: retryPolicy('PUT', undefined),
      maxRetries: 2,
      maxRetryDelay: 30_000,
      timeout: this.#timeout,
      prepare: async () => ({ url: to.base + path, init: { method, headers, ...(body !== undefined ? { body } : {}) } })
    })
    return answer.text
  }
}

interface Target { base: string, headers: Record<string, string> }

/** `fetch` refuses URLs with credentials in them: they move to an Authorization header. */
function target (url: string, username?: string, password?: string): Target {
  const parsed = new URL(url)
  const user = username ?? decodeURIComponent(parsed.username)
  const pass = password ?? decodeURIComponent(parsed.password)
  parsed.username = ''
  parsed.password = ''
  const base = parsed.toString().replace(/\/+$/, '')
  if (user === '' && pass === '') return { base, headers: {} }
  const token = btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${pass}`)))
  return { base, headers: { authorization: `Basic ${token}` } }
}
