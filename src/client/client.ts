import { setTimeout as sleep } from 'node:timers/promises'
import { signedPath } from '../signing/index.ts'
import { send } from './transport.ts'

export interface ClientOptions {
  /** `https://localhost:8443` (main service) or `http://localhost:8080` (cached variant, reads only). */
  baseUrl: string
  apiKey: string
  secret: string
  /** CA certificate to trust (the self-signed certificate of a fresh installation). */
  ca?: string | Buffer
  /** Retries of a 429 or 5xx before giving up (default 3). */
  retries?: number
}

/** An error answer of the API: `status`, the problem document's `code` and `message`. */
export class ReelhouseError extends Error {
  constructor (readonly status: number, readonly code: string | undefined, message: string, readonly body: unknown) {
    super(message)
    this.name = 'ReelhouseError'
  }
}

export interface Page<T> { items: T[], next_page?: string }

/**
 * A client of the Reelhouse API: signs every request (interface-spec §5.1), retries 429 after
 * `X-RateLimit-Reset` seconds and 5xx with exponential backoff, and never logs the secret.
 * @example
 * const client = new ReelhouseClient({ baseUrl: 'https://localhost:8443', apiKey, secret, ca })
 * for await (const label of client.list('/v2/labels')) console.log(label.full_name)
 */
export class ReelhouseClient {
  readonly #secret: string
  readonly #options: Omit<ClientOptions, 'secret'>

  constructor (options: ClientOptions) {
    const { secret, ...rest } = options
    this.#secret = secret
    this.#options = rest
  }

  /** One signed request; resolves with the parsed JSON body, rejects with ReelhouseError. */
  async request<T = unknown> (method: string, path: string, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const retries = this.#options.retries ?? 3
    for (let attempt = 0; ; attempt++) {
      const url = new URL(this.#options.baseUrl.replace(/\/$/, '') + signedPath({ apiKey: this.#options.apiKey, secret: this.#secret, method, path, body: payload }))
      const res = await send(url, method.toUpperCase(), payload, this.#options.ca)
      const parsed: unknown = res.body === '' ? undefined : JSON.parse(res.body)
      if (res.status < 400) return parsed as T
      if (attempt < retries && (res.status === 429 || res.status >= 500)) {
        const reset = Number(res.headers['x-ratelimit-reset'] ?? res.headers['retry-after'])
        await sleep(res.status === 429 && Number.isFinite(reset) ? reset * 1000 : 200 * 2 ** attempt)
        continue
      }
      const problem = parsed as { code?: string, message?: string } | undefined
      throw new ReelhouseError(res.status, problem?.code, problem?.message ?? `HTTP ${res.status}`, parsed)
    }
  }

  /** Every item of a paged list, following `next_page` (each page signed on its own). */
  async * list<T = unknown> (path: string): AsyncGenerator<T> {
    let next: string | undefined = path
    while (next !== undefined) {
      const page: Page<T> = await this.request<Page<T>>('GET', next)
      yield * page.items
      next = page.next_page
    }
  }

  readonly labels = {
    list: (query = '') => this.list<{ id: string, name: string, parent_id: string | null, full_name: string }>(`/v2/labels${query}`),
    get: async (id: string) => await this.request('GET', `/v2/labels/${encodeURIComponent(id)}`),
    create: async (fields: { name: string, parent_id?: string | null }) => await this.request('POST', '/v2/labels', fields)
  }

  readonly players = {
    list: () => this.list('/v2/players'),
    get: async (id: string) => await this.request('GET', `/v2/players/${encodeURIComponent(id)}`),
    update: async (id: string, fields: Record<string, unknown>) => await this.request('PATCH', `/v2/players/${encodeURIComponent(id)}`, fields)
  }

  readonly assets = {
    list: (query = '') => this.list(`/v2/assets${query}`),
    get: async (id: string) => await this.request('GET', `/v2/assets/${encodeURIComponent(id)}`)
  }

  /** The credit balance; costs nothing. */
  async remainingCredits (): Promise<{ remaining_credits: number, remaining_reset_time: number }> {
    return await this.request('GET', '/v2/remaining_credits_and_reset_time')
  }
}
