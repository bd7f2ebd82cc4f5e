import { ApiError } from '../errors/api-error.ts'
import type { Auth } from '../http/request-types.ts'
import { toApiLabel, type ApiLabel } from '../labels/index.ts'
import { toApiPlayer, type ApiPlayer } from '../players/index.ts'
import { toApiPublishingRule, type ApiPublishingRule } from '../publishing-rules/index.ts'
import { findAsset, updateAsset } from './asset-writes.ts'
import type { AssetsContext } from './assets-context.ts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'

/** An asset's labels, player and publishing rule (product.md §8, backlot-api.md §1.2 and §1.4). */

export interface LabelItems { items: ApiLabel[] }

export async function getLabels (ctx: AssetsContext, auth: Auth, ref: string): Promise<LabelItems> {
  const asset = await findAsset(ctx, auth, ref)
  return await labelItems(ctx, auth.accountId, asset.id)
}

/** `PUT /labels/:label_id` and `POST /labels [ids]` add; `PUT /labels [ids]` replaces. Each answers every label of the asset. */
export async function addLabels (ctx: AssetsContext, auth: Auth, ref: string, labelIds: string[], mode: 'add' | 'replace'): Promise<LabelItems> {
  const wanted = [...new Set(labelIds)]
  const after = await updateAsset(ctx, auth, ref, async (trx, before) => {
    await assertLabelsExist(ctx, trx, auth.accountId, wanted)
    if (mode === 'replace') await ctx.parts.removeLabels(auth.accountId, before.id, undefined, trx)
    await ctx.parts.addLabels(auth.accountId, before.id, wanted, trx)
    return {}
  })
  return await labelItems(ctx, auth.accountId, after.id)
}

/** Removes one label (which must exist in the account) or, without `labelId`, all of them. */
export async function removeLabels (ctx: AssetsContext, auth: Auth, ref: string, labelId: string | undefined): Promise<Record<string, never>> {
  await updateAsset(ctx, auth, ref, async (trx, before) => {
    if (labelId !== undefined) await assertLabelsExist(ctx, trx, auth.accountId, [labelId])
    await ctx.parts.removeLabels(auth.accountId, before.id, labelId, trx)
    return {}
  })
  return {}
}

/** The asset's player, or the account's default player when it has none of its own. */
export async function getPlayer (ctx: AssetsContext, auth: Auth, ref: string): Promise<ApiPlayer> {
  const asset = await findAsset(ctx, auth, ref)
  const player = asset.player_id === null
    ? await ctx.links.defaultPlayer(auth.accountId)
    : await ctx.links.findPlayer(auth.accountId, asset.player_id)
  if (player === undefined) throw new ApiError('player_not_found', `Asset ${ref} has no player and the account has no default player.`)
  return toApiPlayer(player)
}

export async function setPlayer (ctx: AssetsContext, auth: Auth, ref: string, playerId: string): Promise<ApiPlayer> {
  let found: ApiPlayer | undefined
  await updateAsset(ctx, auth, ref, async (trx) => {
    const player = await ctx.links.findPlayer(auth.accountId, playerId, trx)
    if (player === undefined) throw new ApiError('player_not_found', `Player ${playerId} does not exist.`)
    found = toApiPlayer(player)
    return { player_id: player.id }
  })
  return found as ApiPlayer
}

export async function getPublishingRule (ctx: AssetsContext, auth: Auth, ref: string): Promise<ApiPublishingRule> {
  const asset = await findAsset(ctx, auth, ref)
  const rule = asset.publishing_rule_id === null ? undefined : await ctx.links.findPublishingRule(auth.accountId, asset.publishing_rule_id)
  if (rule === undefined) throw new ApiError('publishing_rule_not_found', `Asset ${ref} has no publishing rule.`)
  return toApiPublishingRule(rule)
}

export async function setPublishingRule (ctx: AssetsContext, auth: Auth, ref: string, ruleId: string): Promise<ApiPublishingRule> {
  let found: ApiPublishingRule | undefined
  await updateAsset(ctx, auth, ref, async (trx) => {
    const rule = await ctx.links.findPublishingRule(auth.accountId, ruleId, trx)
    if (rule === undefined) throw new ApiError('publishing_rule_not_found', `Publishing rule ${ruleId} does not exist.`)
    found = toApiPublishingRule(rule)
    return { publishing_rule_id: rule.id }
  })
  return found as ApiPublishingRule
}

export async function removePublishingRule (ctx: AssetsContext, auth: Auth, ref: string): Promise<Record<string, never>> {
  await updateAsset(ctx, auth, ref, async () => ({ publishing_rule_id: null }))
  return {}
}

async function labelItems (ctx: AssetsContext, accountId: string, assetId: string): Promise<LabelItems> {
  return { items: (await ctx.parts.labelsOf(accountId, [assetId])).map(toApiLabel) }
}

async function assertLabelsExist (ctx: AssetsContext, trx: Kysely<DB>, accountId: string, labelIds: string[]): Promise<void> {
  const found = new Set((await ctx.parts.findLabels(accountId, labelIds, trx)).map((label) => label.id))
  const missing = labelIds.filter((id) => !found.has(id))
  if (missing.length === 1) throw new ApiError('label_not_found', `Label ${missing[0]} does not exist.`)
  if (missing.length > 1) throw new ApiError('label_not_found', `Labels ${missing.join(', ')} do not exist.`)
}
