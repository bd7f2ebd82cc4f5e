import type { PagedList } from '../core/paging.ts'
import type { RequestOptions } from '../core/transport.ts'
import type { Where } from '../core/where.ts'
import type { Asset, AssetCreateParams, AssetLabels, AssetReplaceParams, AssetUpdateParams, DeletedAsset } from '../generated/assets.ts'
import type { Label } from '../generated/labels.ts'
import type { Player } from '../generated/players.ts'
import type { PublishingRule } from '../generated/publishing-rules.ts'
import type { AssetInclude, AssetOrderField } from '../generated/where.ts'
import { segment, type Endpoint, type PageSize, type Query } from './endpoint.ts'
import { MetadataOf } from './metadata.ts'
import { AssetUploads, type UploadOptions, type UploadSource, type WaitOptions } from './uploads.ts'

/** `name`, `name descending`, `created_at ascending`, … */
export type AssetOrderBy = AssetOrderField | `${AssetOrderField} ${'ascending' | 'descending'}`

export interface AssetListParams extends PageSize {
  /** A `where` expression: a string, or built with `where()` so values are quoted correctly. */
  where?: string | Where
  orderby?: AssetOrderBy
  /** What each asset embeds. */
  include?: readonly AssetInclude[]
}

/** The query string of an asset list. */
export function assetQuery (params: AssetListParams): Query {
  return { where: params.where, orderby: params.orderby, include: params.include?.join(','), limit: params.limit }
}

const PATH = '/v2/assets'

/**
 * `/v2/assets` and its sub-resources. An asset is named by its embed code or its `external_id`.
 * @example
 * const asset = await client.assets.create({ asset_type: 'remote_asset', name: 'Trailer', stream_urls: { iphone: 'https://cdn.example/t.m3u8' } })
 * await client.assets.metadata.update(asset.embed_code, { director: 'Varda' })
 */
export class Assets {
  readonly #api: Endpoint
  /** The asset's custom metadata. */
  readonly metadata: MetadataOf
  readonly labels: AssetLabelsOf
  readonly player: AssetPlayer
  readonly publishingRule: AssetPublishingRule
  /** Chunk URLs, abandoning, replacing media, processing again, the source file (docs/uploads.md). */
  readonly uploads: AssetUploads

  constructor (api: Endpoint) {
    this.#api = api
    this.uploads = new AssetUploads(api)
    this.metadata = new MetadataOf(api, PATH)
    this.labels = new AssetLabelsOf(api)
    this.player = new AssetPlayer(api)
    this.publishingRule = new AssetPublishingRule(api)
  }

  list (params: AssetListParams = {}, options?: RequestOptions): PagedList<Asset> {
    return this.#api.list(PATH, assetQuery(params), options)
  }

  async get (id: string, params: { include?: readonly AssetInclude[] } = {}, options?: RequestOptions): Promise<Asset> {
    return await this.#api.get(`${PATH}/${segment(id)}`, options, { include: params.include?.join(',') })
  }

  async create (params: AssetCreateParams, options?: RequestOptions): Promise<Asset> {
    return await this.#api.post(PATH, params, options)
  }

  /** PATCH: only the fields given change. */
  async update (id: string, params: AssetUpdateParams, options?: RequestOptions): Promise<Asset> {
    return await this.#api.patch(`${PATH}/${segment(id)}`, params, options)
  }

  /** PUT: fields not given return to their defaults (the embed code, type and status stay). */
  async replace (id: string, params: AssetReplaceParams, options?: RequestOptions): Promise<Asset> {
    return await this.#api.put(`${PATH}/${segment(id)}`, params, options)
  }

  /**
   * Creates a video (or `assetType`) asset for `source`, uploads it in parallel chunks and completes the
   * upload; resolves with the asset, now `processing`. Pass `assetId` to continue an interrupted upload.
   * @example
   * const asset = await client.assets.upload(file, { name: 'Trailer', concurrency: 4, onProgress: (p) => console.log(p.sentBytes, p.totalBytes) })
   * await client.assets.waitUntilProcessed(asset.embed_code)
   */
  async upload (source: UploadSource, options?: UploadOptions): Promise<Asset> {
    return await this.uploads.upload(source, options)
  }

  /** Polls the asset until it is `live` or `paused` (resolves) or `error` (throws). */
  async waitUntilProcessed (id: string, options?: WaitOptions): Promise<Asset> {
    return await this.uploads.waitUntilProcessed(id, options)
  }

  /** Deletes the asset; it then appears in `client.deletedAssets.list()`. */
  async delete (id: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}`, options)
  }
}

/** The labels of an asset. Every write answers all the asset's labels. */
export class AssetLabelsOf {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  async list (id: string, options?: RequestOptions): Promise<Label[]> {
    return (await this.#api.get<AssetLabels>(`${PATH}/${segment(id)}/labels`, options)).items
  }

  /** Adds these labels (by id) to the ones the asset has. */
  async add (id: string, labelIds: readonly string[], options?: RequestOptions): Promise<Label[]> {
    return (await this.#api.post<AssetLabels>(`${PATH}/${segment(id)}/labels`, labelIds, options)).items
  }

  /** Replaces the asset's labels with these. */
  async set (id: string, labelIds: readonly string[], options?: RequestOptions): Promise<Label[]> {
    return (await this.#api.put<AssetLabels>(`${PATH}/${segment(id)}/labels`, labelIds, options)).items
  }

  /** Adds one label. */
  async addOne (id: string, labelId: string, options?: RequestOptions): Promise<Label[]> {
    return (await this.#api.put<AssetLabels>(`${PATH}/${segment(id)}/labels/${segment(labelId)}`, undefined, options)).items
  }

  /** Removes one label (a label the asset lacks is a no-op). */
  async remove (id: string, labelId: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}/labels/${segment(labelId)}`, options)
  }

  /** Removes every label. */
  async clear (id: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}/labels`, options)
  }
}

/** The player of an asset: its own, else the account's default player. */
export class AssetPlayer {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  async get (id: string, options?: RequestOptions): Promise<Player> {
    return await this.#api.get(`${PATH}/${segment(id)}/player`, options)
  }

  async set (id: string, playerId: string, options?: RequestOptions): Promise<Player> {
    return await this.#api.put(`${PATH}/${segment(id)}/player/${segment(playerId)}`, undefined, options)
  }
}

/** The publishing rule of an asset. */
export class AssetPublishingRule {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  /** A 404 (`NotFoundError`) when the asset has none. */
  async get (id: string, options?: RequestOptions): Promise<PublishingRule> {
    return await this.#api.get(`${PATH}/${segment(id)}/publishing_rule`, options)
  }

  async set (id: string, ruleId: string, options?: RequestOptions): Promise<PublishingRule> {
    return await this.#api.put(`${PATH}/${segment(id)}/publishing_rule/${segment(ruleId)}`, undefined, options)
  }

  async remove (id: string, options?: RequestOptions): Promise<void> {
    await this.#api.delete(`${PATH}/${segment(id)}/publishing_rule`, options)
  }
}

/** `/v2/deleted_assets`: newest deletion first. */
export class DeletedAssets {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  list (params: PageSize = {}, options?: RequestOptions): PagedList<DeletedAsset> {
    return this.#api.list('/v2/deleted_assets', { limit: params.limit }, options)
  }
}
