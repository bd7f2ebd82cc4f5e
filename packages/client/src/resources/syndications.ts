import type { PagedList } from '../core/paging.ts'
import { retryPolicy } from '../core/retry.ts'
import type { RequestOptions } from '../core/transport.ts'
import type { AccessKey, AccessKeys, Syndication, SyndicationCreateParams, SyndicationUpdateParams } from '../generated/syndications.ts'
import { segment, type Endpoint, type PageSize } from './endpoint.ts'

const PATH = '/v2/syndications'

export interface FeedOptions {
  /** Needed when the syndication has `require_access_key`. */
  accessKey?: string
  /** Items per feed page (1–500, default 20). */
  limit?: number
}

/**
 * `/v2/syndications`: feeds (MRSS, iTunes, …) of the account's live assets. The feed itself is public:
 * `feedUrl()` gives its address for a podcast app or a partner, `feed()` reads it.
 */
export class Syndications {
  readonly #api: Endpoint
  readonly accessKeys: SyndicationAccessKeys

  constructor (api: Endpoint) {
    this.#api = api
    this.accessKeys = new SyndicationAccessKeys(api)
  }

  list (params: PageSize = {}, options?: RequestOptions): PagedList<Syndication> {
    return this.#api.list(PATH, { limit: params.limit }, options)
  }

  async get (id: string, options?: RequestOptions): Promise<Syndication> {
    return await this.#api.get(`${PATH}/${segment(id)}`, options)
  }

  async create (params: SyndicationCreateParams, options?: RequestOptions): Promise<Syndication> {
    return await this.#api.post(PATH, params, options)
  }

  async update (id: string, params: SyndicationUpdateParams, options?: RequestOptions): Promise<Syndication> {
    return await this.#api.patch(`${PATH}/${segment(id)}`, params, options)
  }

  /** PUT: fields not given return to their defaults. */
  async replace (id: string, params: SyndicationCreateParams, options?: RequestOptions): Promise<Syndication> {
    return await this.#api.put(`${PATH}/${segment(id)}`, params, options)
  }

  async delete (id: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}`, options)
  }

  /**
   * The absolute address of a syndication's public feed (unsigned: anyone with it can read the feed,
   * so hand out an access key where that matters).
   */
  feedUrl (syndication: Pick<Syndication, 'feed_url'>, options: FeedOptions = {}): string {
    // Appended, not resolved: a base URL with a path prefix (behind a proxy) keeps it.
    const url = new URL(this.#api.transport.baseUrl + syndication.feed_url)
    if (options.accessKey !== undefined) url.searchParams.set('access_key', options.accessKey)
    if (options.limit !== undefined) url.searchParams.set('limit', String(options.limit))
    return url.toString()
  }

  /** The feed's text as its reader gets it: XML, or JSON for a `roku` syndication. */
  async feed (syndication: Pick<Syndication, 'feed_url'>, options: FeedOptions & RequestOptions = {}): Promise<string> {
    const url = this.feedUrl(syndication, options)
    const answer = await this.#api.transport.sendUnsigned(url, { method: 'GET', headers: { accept: 'application/rss+xml' } }, retryPolicy('GET', undefined), options)
    return answer.text
  }
}

/** The access keys of a syndication that has `require_access_key`. */
export class SyndicationAccessKeys {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  async list (id: string, options?: RequestOptions): Promise<AccessKey[]> {
    return (await this.#api.get<AccessKeys>(`${PATH}/${segment(id)}/access_keys`, options)).items
  }

  async create (id: string, options?: RequestOptions): Promise<AccessKey> {
    return await this.#api.post(`${PATH}/${segment(id)}/access_keys`, undefined, options)
  }

  async delete (id: string, accessKey: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}/access_keys/${segment(accessKey)}`, options)
  }
}
