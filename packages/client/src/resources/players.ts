import type { PagedList } from '../core/paging.ts'
import type { RequestOptions } from '../core/transport.ts'
import type { Player, PlayerCreateParams, PlayerUpdateParams } from '../generated/players.ts'
import { segment, type Endpoint, type PageSize } from './endpoint.ts'
import { MetadataOf } from './metadata.ts'

const PATH = '/v2/players'

/** `/v2/players` and their metadata. Setting `is_default` on one player clears it on the others. */
export class Players {
  readonly #api: Endpoint
  readonly metadata: MetadataOf

  constructor (api: Endpoint) {
    this.#api = api
    this.metadata = new MetadataOf(api, PATH)
  }

  list (params: PageSize = {}, options?: RequestOptions): PagedList<Player> {
    return this.#api.list(PATH, { limit: params.limit }, options)
  }

  async get (id: string, options?: RequestOptions): Promise<Player> {
    return await this.#api.get(`${PATH}/${segment(id)}`, options)
  }

  async create (params: PlayerCreateParams, options?: RequestOptions): Promise<Player> {
    return await this.#api.post(PATH, params, options)
  }

  /** PATCH: only the fields given change; nested objects merge field by field. */
  async update (id: string, params: PlayerUpdateParams, options?: RequestOptions): Promise<Player> {
    return await this.#api.patch(`${PATH}/${segment(id)}`, params, options)
  }

  /** PUT: fields not given return to their defaults. */
  async replace (id: string, params: PlayerCreateParams, options?: RequestOptions): Promise<Player> {
    return await this.#api.put(`${PATH}/${segment(id)}`, params, options)
  }

  async delete (id: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}`, options)
  }
}
