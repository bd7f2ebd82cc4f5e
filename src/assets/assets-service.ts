import { ApiError } from '../errors/api-error.ts'
import type { Auth } from '../http/request-types.ts'
import { toApiLabel } from '../labels/index.ts'
import { toPage, type Page, type PageParams } from '../paging/index.ts'
import { toApiPlayer } from '../players/index.ts'
import { parseInclude, type DefaultInclude } from '../query/index.ts'
import { patchChanges, replaceChanges, type CreateAssetInput, type ReplaceAssetInput, type UpdateAssetInput } from './asset-input.ts'
import { assetListParams, assetPosition } from './asset-query.ts'
import * as writes from './asset-writes.ts'
import { ownerOf, type AssetsContext } from './assets-context.ts'
import { toApiAsset, toApiDeletedAsset, type ApiAsset, type ApiDeletedAsset, type AssetExtras } from './assets-format.ts'
import type { AssetRow } from './assets-repository.ts'
import { DELETED_ORDER } from './assets-repository.ts'

export interface AssetListQuery { where?: string, orderby?: string, include?: string }

/** `GET /v2/assets`: keyset pages in the chosen order, filtered by `where`, with `include`d parts. */
export async function listAssets (ctx: AssetsContext, auth: Auth, query: AssetListQuery, page: PageParams): Promise<Page<ApiAsset>> {
  return await listWith(ctx, auth, query, page, undefined)
}

/** `GET /v2/labels/:id/assets`: the assets carrying that label (not those of its child labels). */
export async function listLabelAssets (ctx: AssetsContext, auth: Auth, labelId: string, query: AssetListQuery, page: PageParams): Promise<Page<ApiAsset>> {
  const [label] = await ctx.parts.findLabels(auth.accountId, [labelId])
  if (label === undefined) throw new ApiError('label_not_found', `Label ${labelId} does not exist.`)
  return await listWith(ctx, auth, query, page, label.id)
}

async function listWith (ctx: AssetsContext, auth: Auth, query: AssetListQuery, page: PageParams, labelId: string | undefined): Promise<Page<ApiAsset>> {
  const params = await assetListParams(ctx, auth.accountId, query)
  const rows = await ctx.assets.page(auth.accountId, { ownerId: ownerOf(auth), labelId, where: params.filter, order: params.order }, page)
  const rowPage = toPage(rows, page, (row) => assetPosition(params.orderField, row), (row) => row)
  return { ...rowPage, items: await withExtras(ctx, auth.accountId, rowPage.items, params.includes) }
}

export async function getAsset (ctx: AssetsContext, auth: Auth, ref: string, include: string | undefined): Promise<ApiAsset> {
  const includes = parseInclude(include)
  const row = await writes.findAsset(ctx, auth, ref)
  return (await withExtras(ctx, auth.accountId, [row], includes))[0] as ApiAsset
}

export async function createAsset (ctx: AssetsContext, auth: Auth, input: CreateAssetInput): Promise<ApiAsset> {
  return toApiAsset(await writes.createAsset(ctx, auth, input))
}

/** PATCH: changes only the fields given. */
export async function updateAsset (ctx: AssetsContext, auth: Auth, ref: string, input: UpdateAssetInput): Promise<ApiAsset> {
  return toApiAsset(await writes.updateAsset(ctx, auth, ref, async (_trx, before) => patchChanges(before, input)))
}

/** PUT: replaces the asset; fields not given return to their defaults, the embed code stays. */
export async function replaceAsset (ctx: AssetsContext, auth: Auth, ref: string, input: ReplaceAssetInput): Promise<ApiAsset> {
  return toApiAsset(await writes.updateAsset(ctx, auth, ref, async (_trx, before) => replaceChanges(before, input)))
}

export async function deleteAsset (ctx: AssetsContext, auth: Auth, ref: string): Promise<Record<string, never>> {
  return await writes.deleteAsset(ctx, auth, ref)
}

/** `GET /v2/deleted_assets`: newest deletion first. */
export async function listDeletedAssets (ctx: AssetsContext, auth: Auth, page: PageParams): Promise<Page<ApiDeletedAsset>> {
  const rows = await ctx.assets.pageDeleted(auth.accountId, ownerOf(auth), page)
  return toPage(rows, page, (row) => DELETED_ORDER.map(({ column }) => row[column as 'deleted_at' | 'id']), toApiDeletedAsset)
}

/** Maps rows to API assets with the `include`d parts, reading each part for the whole page in one query. */
export async function withExtras (ctx: AssetsContext, accountId: string, rows: AssetRow[], includes: ReadonlySet<DefaultInclude>): Promise<ApiAsset[]> {
  const ids = rows.map((row) => row.id)
  const extras = new Map<string, AssetExtras>(ids.map((id) => [id, {}]))
  if (includes.has('metadata')) {
    for (const id of ids) (extras.get(id) as AssetExtras).metadata = {}
    for (const entry of await ctx.parts.metadataOf(accountId, ids)) {
      (extras.get(entry.asset_id)?.metadata as Record<string, string>)[entry.name] = entry.value
    }
  }
  if (includes.has('labels')) {
    for (const id of ids) (extras.get(id) as AssetExtras).labels = []
    for (const label of await ctx.parts.labelsOf(accountId, ids)) extras.get(label.asset_id)?.labels?.push(toApiLabel(label))
  }
  if (includes.has('player')) {
    const players = new Map((await ctx.links.findPlayers(accountId, [...new Set(rows.flatMap((row) => row.player_id ?? []))])).map((p) => [p.id, p]))
    const fallback = rows.some((row) => row.player_id === null) ? await ctx.links.defaultPlayer(accountId) : undefined
    for (const row of rows) {
      const player = row.player_id === null ? fallback : players.get(row.player_id)
      ;(extras.get(row.id) as AssetExtras).player = player === undefined ? null : toApiPlayer(player)
    }
  }
  return rows.map((row) => toApiAsset(row, extras.get(row.id)))
}
