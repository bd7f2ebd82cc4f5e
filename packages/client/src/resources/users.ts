import type { PagedList } from '../core/paging.ts'
import type { RequestOptions } from '../core/transport.ts'
import type { Me, User, UserCreateParams, UserUpdateParams, UserWithSecret } from '../generated/users.ts'
import { segment, type Endpoint, type PageSize } from './endpoint.ts'

const PATH = '/v2/users'

/**
 * `/v2/users` (administrators only) and `me()` (every role). A user's secret is shown only by
 * `create` and `rotateSecret`.
 */
export class Users {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  /** The caller itself: its id, name, role and account. */
  async me (options?: RequestOptions): Promise<Me> {
    return await this.#api.get(`${PATH}/me`, options)
  }

  list (params: PageSize = {}, options?: RequestOptions): PagedList<User> {
    return this.#api.list(PATH, { limit: params.limit }, options)
  }

  async get (id: string, options?: RequestOptions): Promise<User> {
    return await this.#api.get(`${PATH}/${segment(id)}`, options)
  }

  /** A new user with its own API key and secret (shown only in this answer). */
  async create (params: UserCreateParams, options?: RequestOptions): Promise<UserWithSecret> {
    return await this.#api.post(PATH, params, options)
  }

  async update (id: string, params: UserUpdateParams, options?: RequestOptions): Promise<User> {
    return await this.#api.patch(`${PATH}/${segment(id)}`, params, options)
  }

  async delete (id: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}`, options)
  }

  /** A new secret; the old one stops working at once. */
  async rotateSecret (id: string, options?: RequestOptions): Promise<UserWithSecret> {
    return await this.#api.post(`${PATH}/${segment(id)}/secret`, undefined, options)
  }
}
