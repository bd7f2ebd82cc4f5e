import type { PagedList } from '../core/paging.ts'
import type { RequestOptions } from '../core/transport.ts'
import type { Asset } from '../generated/assets.ts'
import type { Label, LabelCreateParams, LabelUpdateParams } from '../generated/labels.ts'
import type { AssetListParams } from './assets.ts'
import { assetQuery } from './assets.ts'
import { segment, type Endpoint, type PageSize } from './endpoint.ts'

export interface LabelListParams extends PageSize {
  /** `true`: top-level labels only; `false`: only labels that have a parent. */
  isRoot?: boolean
}

const PATH = '/v2/labels'

/**
 * `/v2/labels`: the label tree. A label's `full_name` is `/` plus its ancestors' names and its own.
 * @example
 * const [sports] = await client.labels.createByFullPath('/Sports/Hockey')
 * for await (const child of client.labels.children(sports.parent_id!)) console.log(child.name)
 */
export class Labels {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  list (params: LabelListParams = {}, options?: RequestOptions): PagedList<Label> {
    return this.#api.list(PATH, { is_root: params.isRoot, limit: params.limit }, options)
  }

  async get (id: string, options?: RequestOptions): Promise<Label> {
    return await this.#api.get(`${PATH}/${segment(id)}`, options)
  }

  async create (params: LabelCreateParams, options?: RequestOptions): Promise<Label> {
    return await this.#api.post(PATH, params, options)
  }

  /** Renames and/or moves a label (`parent_id: null` moves it to the top); its subtree's full names follow. */
  async update (id: string, params: LabelUpdateParams, options?: RequestOptions): Promise<Label> {
    return await this.#api.patch(`${PATH}/${segment(id)}`, params, options)
  }

  /** PUT: a `parent_id` not given moves the label to the top level. */
  async replace (id: string, params: LabelCreateParams, options?: RequestOptions): Promise<Label> {
    return await this.#api.put(`${PATH}/${segment(id)}`, params, options)
  }

  /** A label with children is refused unless `recursive`, which deletes its whole subtree. */
  async delete (id: string, params: { recursive?: boolean } = {}, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}`, options, { recursive: params.recursive })
  }

  /** The direct children of a label. */
  children (id: string, params: PageSize = {}, options?: RequestOptions): PagedList<Label> {
    return this.#api.list(`${PATH}/${segment(id)}/children`, { limit: params.limit }, options)
  }

  /** The assets that carry the label (not those of its child labels). */
  assets (id: string, params: AssetListParams = {}, options?: RequestOptions): PagedList<Asset> {
    return this.#api.list(`${PATH}/${segment(id)}/assets`, assetQuery(params), options)
  }

  /**
   * The labels at these full paths, in the order asked; a 400 (`label_paths_missing`) names the ones
   * that do not exist.
   */
  async byFullPath (paths: string | readonly string[], options?: RequestOptions): Promise<Label[]> {
    return (await this.#api.get<{ items: Label[] }>(fullPathsPath(paths), options)).items
  }

  /** The labels at these full paths, creating whatever is missing along each path (parents first). */
  async createByFullPath (paths: string | readonly string[], options?: RequestOptions): Promise<Label[]> {
    return await this.#api.post(fullPathsPath(paths), undefined, options)
  }
}

/** `/v2/labels/by_full_path/<paths>`: each path percent-encoded whole (its slashes too), joined by commas. */
function fullPathsPath (paths: string | readonly string[]): string {
  const list = typeof paths === 'string' ? [paths] : paths
  if (list.length === 0) throw new RangeError('Give at least one label path.')
  return `${PATH}/by_full_path/${list.map((path) => encodeURIComponent(path)).join(',')}`
}
