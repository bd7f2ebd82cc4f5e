import type { PagedList } from './core/paging.ts'
import { Transport, type CallInit, type ClientOptions, type RateLimit, type RequestOptions } from './core/transport.ts'
import { Analytics } from './resources/analytics.ts'
import { Assets, DeletedAssets } from './resources/assets.ts'
import { Credits } from './resources/credits.ts'
import { Endpoint } from './resources/endpoint.ts'
import { Labels } from './resources/labels.ts'
import { Players } from './resources/players.ts'
import { PublishingRules } from './resources/publishing-rules.ts'
import { Syndications } from './resources/syndications.ts'
import { Users } from './resources/users.ts'
import type { Account } from './generated/users.ts'

/**
 * A client of the Reelhouse API. Every request is signed with the secret (which never leaves the
 * process), reads may go to the cached variant (`cacheBaseUrl`), lists are async iterables, error
 * answers are typed errors, and requests that are safe to repeat are retried (docs/client.md).
 * @example
 * const client = new Reelhouse({ baseUrl: 'https://localhost:8443', apiKey, secret })
 * for await (const label of client.labels.list()) console.log(label.full_name)
 */
export class Reelhouse {
  readonly #transport: Transport
  readonly #api: Endpoint
  readonly assets: Assets
  readonly deletedAssets: DeletedAssets
  readonly labels: Labels
  readonly players: Players
  readonly syndications: Syndications
  readonly publishingRules: PublishingRules
  readonly users: Users
  readonly credits: Credits
  readonly analytics: Analytics

  constructor (options: ClientOptions) {
    this.#transport = new Transport(options)
    this.#api = new Endpoint(this.#transport)
    this.assets = new Assets(this.#api)
    this.deletedAssets = new DeletedAssets(this.#api)
    this.labels = new Labels(this.#api)
    this.players = new Players(this.#api)
    this.syndications = new Syndications(this.#api)
    this.publishingRules = new PublishingRules(this.#api)
    this.users = new Users(this.#api)
    this.credits = new Credits(this.#api)
    this.analytics = new Analytics(this.#api)
  }

  /**
   * The caller's own account (`GET /v2/account`): its id, code and name, and the credits it may spend
   * each minute. Every role may call it.
   * @example const { credits_per_minute } = await client.account()
   */
  async account (options?: RequestOptions): Promise<Account> {
    return await this.#api.get('/v2/account', options)
  }

  /** The credit balance the last answer reported; undefined before the first answer. */
  get rateLimit (): RateLimit | undefined {
    return this.#transport.rateLimit
  }

  /**
   * Any signed request, for a route the client has no method for: `path` may carry a query string
   * (encoded as it is to be sent). Resolves with the parsed JSON answer.
   * @example await client.request('GET', '/v2/labels?limit=5')
   */
  async request<T = unknown> (method: string, path: string, init?: CallInit): Promise<T> {
    return await this.#transport.request<T>(method, path, init)
  }

  /** Every item of any paged list, following `next_page`. */
  paginate<T = unknown> (path: string, options?: RequestOptions): PagedList<T> {
    return this.#api.list<T>(path, {}, options)
  }

  /** Keeps the secret out of `console.log(client)` and JSON dumps. */
  toJSON (): Record<string, unknown> {
    return this.#transport.toJSON()
  }
}
