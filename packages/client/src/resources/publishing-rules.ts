import type { PagedList } from '../core/paging.ts'
import type { RequestOptions } from '../core/transport.ts'
import type { PublishingRule, PublishingRuleCreateParams, PublishingRuleUpdateParams } from '../generated/publishing-rules.ts'
import { segment, type Endpoint, type PageSize } from './endpoint.ts'

const PATH = '/v2/publishing_rules'

/** `/v2/publishing_rules`: devices, time, domain and country restrictions that assets point to. */
export class PublishingRules {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  list (params: PageSize = {}, options?: RequestOptions): PagedList<PublishingRule> {
    return this.#api.list(PATH, { limit: params.limit }, options)
  }

  async get (id: string, options?: RequestOptions): Promise<PublishingRule> {
    return await this.#api.get(`${PATH}/${segment(id)}`, options)
  }

  async create (params: PublishingRuleCreateParams, options?: RequestOptions): Promise<PublishingRule> {
    return await this.#api.post(PATH, params, options)
  }

  /** PATCH: only the fields given change; nested objects merge, lists replace. */
  async update (id: string, params: PublishingRuleUpdateParams, options?: RequestOptions): Promise<PublishingRule> {
    return await this.#api.patch(`${PATH}/${segment(id)}`, params, options)
  }

  /** PUT: fields not given return to their defaults. */
  async replace (id: string, params: PublishingRuleCreateParams, options?: RequestOptions): Promise<PublishingRule> {
    return await this.#api.put(`${PATH}/${segment(id)}`, params, options)
  }

  async delete (id: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}`, options)
  }
}
