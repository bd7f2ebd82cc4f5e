import { ReelhouseError } from './errors.ts'
import { exchange, type Answer, type FetchLike } from './exchange.ts'
import { retryPolicy, type RetryPolicy } from './retry.ts'
import { signedPath } from './signing.ts'

export interface ClientOptions {
  /** The main service, e.g. `https://localhost:8443`. */
  baseUrl: string
  apiKey: string
  /** The 40-character secret. It signs requests and is never sent, logged or put in an error. */
  secret: string
  /**
   * The cached variant (`http://localhost:8080`): when set, reads go there unless a call says
   * `{ cache: false }`. Off by default (docs/client.md, "The cached variant").
   */
  cacheBaseUrl?: string
  /** Your own `fetch` (a proxy, a private CA: see `@reelhouse/client/node`). Default: the global `fetch`. */
  fetch?: FetchLike
  /** Retries of a request that may be retried (docs/client.md, "Retries"). Default 2. */
  maxRetries?: number
  /** Per attempt, in ms. Default 60,000. */
  timeout?: number
  /** The longest wait the client accepts before a retry, in ms; a longer `Retry-After` throws at once. Default 60,000. */
  maxRetryDelay?: number
  /** Give every POST and PATCH an `Idempotency-Key`, so they may be retried too. Default true. */
  autoIdempotencyKeys?: boolean
  /** How long a signed URL stays valid, in seconds. Default 900. */
  expiresIn?: number
}

/** What every call accepts as its last argument. */
export interface RequestOptions {
  signal?: AbortSignal
  /** Your own key for a POST or PATCH: a repeat with the same key and body is answered, not applied again. */
  idempotencyKey?: string
  timeout?: number
  maxRetries?: number
  /** Reads only: `false` sends this read to the main service although `cacheBaseUrl` is set. */
  cache?: boolean
}

export interface CallInit extends RequestOptions {
  query?: Record<string, string | number | boolean | undefined>
  /** Sent as JSON. */
  body?: unknown
}

/** The credit balance the last answer reported (`X-RateLimit-Credits`, `X-RateLimit-Reset`). */
export interface RateLimit {
  credits: number
  resetSeconds: number
}

const HOUR = 3600

/** Signs and sends requests; the resources call it. Holds the secret in a private field. */
export class Transport {
  readonly #secret: string
  readonly #options: Required<Omit<ClientOptions, 'secret' | 'cacheBaseUrl' | 'fetch'>> & Pick<ClientOptions, 'cacheBaseUrl'>
  readonly #fetch: FetchLike
  /** The balance the last answer carried; undefined before the first answer. */
  rateLimit: RateLimit | undefined

  constructor (options: ClientOptions) {
    if (typeof options.secret !== 'string' || options.secret === '') throw new ReelhouseError('A secret is required to sign requests.')
    if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new ReelhouseError('An apiKey is required.')
    this.#secret = options.secret
    this.#fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init))
    this.#options = {
      baseUrl: trimSlash(options.baseUrl),
      apiKey: options.apiKey,
      cacheBaseUrl: options.cacheBaseUrl === undefined ? undefined : trimSlash(options.cacheBaseUrl),
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeout ?? 60_000,
      maxRetryDelay: options.maxRetryDelay ?? 60_000,
      autoIdempotencyKeys: options.autoIdempotencyKeys ?? true,
      expiresIn: options.expiresIn ?? 900
    }
  }

  get baseUrl (): string { return this.#options.baseUrl }
  get apiKey (): string { return this.#options.apiKey }

  /** One signed request; resolves with the parsed JSON answer (`undefined` for an empty body). */
  async request<T> (method: string, path: string, init: CallInit = {}): Promise<T> {
    const answer = await this.send(method, path, init)
    // An error status gets here only for a DELETE whose earlier attempt had deleted the resource.
    if (answer.status >= 400) return undefined as T
    return (answer.text === '' ? undefined : JSON.parse(answer.text)) as T
  }

  /** One signed request; resolves with the whole answer. */
  async send (method: string, path: string, init: CallInit = {}): Promise<Answer> {
    const upper = method.toUpperCase()
    const options = this.#options
    const body = init.body === undefined ? undefined : JSON.stringify(init.body)
    const keyed = upper === 'POST' || upper === 'PATCH'
    const maxRetries = init.maxRetries ?? options.maxRetries
    const idempotencyKey = keyed ? init.idempotencyKey ?? (options.autoIdempotencyKeys && maxRetries > 0 ? crypto.randomUUID() : undefined) : undefined
    const cached = (upper === 'GET' || upper === 'HEAD') && init.cache !== false && options.cacheBaseUrl !== undefined
    const headers: Record<string, string> = { accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey
    return await exchange({
      fetch: this.#fetch,
      retry: retryPolicy(upper, idempotencyKey),
      maxRetries,
      maxRetryDelay: options.maxRetryDelay,
      timeout: init.timeout ?? options.timeout,
      signal: init.signal,
      onAnswer: (answered) => { this.#noteBalance(answered) },
      doneAlready: upper === 'DELETE' ? (status) => status === 404 : undefined,
      prepare: async () => {
        const expires = this.#expires(cached)
        const signed = await signedPath({ apiKey: options.apiKey, secret: this.#secret, method: upper, path, query: init.query, body, expires })
        const base = cached ? options.cacheBaseUrl as string : options.baseUrl
        return { url: base + signed, init: { method: upper, headers, ...(body !== undefined ? { body } : {}) } }
      }
    })
  }

  /**
   * An unsigned request to an absolute URL (public feeds, event collection), with this client's
   * `fetch`, timeout and retry limits and the given retry policy.
   */
  async sendUnsigned (url: string, init: RequestInit, policy: RetryPolicy, options: RequestOptions = {}): Promise<Answer> {
    return await exchange({
      fetch: this.#fetch,
      retry: policy,
      maxRetries: options.maxRetries ?? this.#options.maxRetries,
      maxRetryDelay: this.#options.maxRetryDelay,
      timeout: options.timeout ?? this.#options.timeout,
      signal: options.signal,
      prepare: async () => ({ url, init })
    })
  }

  /**
   * Unix seconds the signature stays valid until. Cached reads round it up to the next hour, so the
   * same read signed twice within the hour is the same URL, which the cached variant can answer.
   */
  #expires (cached: boolean): number {
    const until = Math.floor(Date.now() / 1000) + this.#options.expiresIn
    return cached ? Math.ceil(until / HOUR) * HOUR : until
  }

  #noteBalance (headers: Headers): void {
    const credits = headers.get('x-ratelimit-credits')
    const reset = headers.get('x-ratelimit-reset')
    if (credits !== null && reset !== null) this.rateLimit = { credits: Number(credits), resetSeconds: Number(reset) }
  }

  /** Keeps the secret out of `console.log(client)` and JSON dumps. */
  toJSON (): Record<string, unknown> {
    return { baseUrl: this.#options.baseUrl, apiKey: this.#options.apiKey }
  }
}

function trimSlash (url: string): string {
  return url.replace(/\/+$/, '')
}
