import type { RequestOptions } from '../core/transport.ts'
import type { Metadata, MetadataPatch } from '../generated/metadata.ts'
import { segment, type Endpoint } from './endpoint.ts'

/**
 * The `metadata` of an asset or a player: at most 100 string pairs. `replace` sets them all, `update`
 * merges (a `null` value removes a name), `clear` removes them all.
 */
export class MetadataOf {
  readonly #api: Endpoint
  readonly #collection: string

  constructor (api: Endpoint, collection: string) {
    this.#api = api
    this.#collection = collection
  }

  async get (id: string, options?: RequestOptions): Promise<Metadata> {
    return await this.#api.get(this.#path(id), options)
  }

  async replace (id: string, metadata: Metadata, options?: RequestOptions): Promise<Metadata> {
    return await this.#api.put(this.#path(id), metadata, options)
  }

  async update (id: string, patch: MetadataPatch, options?: RequestOptions): Promise<Metadata> {
    return await this.#api.patch(this.#path(id), patch, options)
  }

  async clear (id: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(this.#path(id), options)
  }

  #path (id: string): string {
    return `${this.#collection}/${segment(id)}/metadata`
  }
}
