import type { Kysely } from 'kysely'
import type { Caller } from '../../../auth/caller.ts'
import type { Database } from '../../../db/index.ts'
import type { DB } from '../../../db/tables/index.ts'
import { ApiError } from '../../../errors/api-error.ts'
import { toApiLabel, type ApiLabel } from '../../labels/index.ts'
import { createPlayersRepository, toApiPlayer, type ApiPlayer } from '../../players/index.ts'
import { createPublishingRulesRepository, toApiPublishingRule, type ApiPublishingRule } from '../../publishing-rules/index.ts'
import { metadataOf, writtenMetadata, type Metadata, type MetadataPatch } from '../../kit/metadata.ts'
import type { WriteMode } from '../../kit/write-mode.ts'
import type { AssetsService } from '../assets-service.ts'
import { createPartsRepository } from './parts-repository.ts'

type Deleted = Record<string, never>

export interface LabelItems { items: ApiLabel[] }

/**
 * The sub-resources of an asset: its metadata, labels, player and publishing rule. Reads find the asset
 * as the caller may see it; writes go through the asset's own write path (`AssetsService.change`).
 */
export function createPartsService ({ database }: { database: Database }, assets: Pick<AssetsService, 'find' | 'change'>) {
  const parts = createPartsRepository(database.db)
  const players = createPlayersRepository(database.db)
  const rules = createPublishingRulesRepository(database.db)

  async function metadataOfAsset (accountId: string, assetId: string, trx?: Kysely<DB>): Promise<Metadata> {
    return metadataOf((await parts.metadataOf(accountId, [assetId], trx)).map(({ name, value }) => [name, value] as const))
  }

  async function labelItems (accountId: string, assetId: string, trx?: Kysely<DB>): Promise<LabelItems> {
    return { items: (await parts.labelsOf(accountId, [assetId], trx)).map(toApiLabel) }
  }

  async function assertLabelsExist (trx: Kysely<DB>, accountId: string, labelIds: string[]): Promise<void> {
    const found = new Set((await parts.findLabels(accountId, labelIds, trx)).map((label) => label.id))
    const missing = labelIds.filter((id) => !found.has(id))
    if (missing.length === 1) throw new ApiError('label_not_found', `Label ${missing[0]} does not exist.`)
    if (missing.length > 1) throw new ApiError('label_not_found', `Labels ${missing.join(', ')} do not exist.`)
  }

  return {
    async getMetadata (caller: Caller, ref: string): Promise<Metadata> {
      return await metadataOfAsset(caller.accountId, (await assets.find(caller, ref)).id)
    },
    async writeMetadata (caller: Caller, ref: string, body: MetadataPatch, mode: WriteMode): Promise<Metadata> {
      let next: Metadata = {}
      return await assets.change(caller, ref, async (trx, before) => {
        next = writtenMetadata(await metadataOfAsset(caller.accountId, before.id, trx), body, mode, 'An asset')
        await parts.replaceMetadata(caller.accountId, before.id, next, trx)
        return {}
      }, () => next)
    },
    async clearMetadata (caller: Caller, ref: string): Promise<Deleted> {
      return await assets.change(caller, ref, async (trx, before) => {
        await parts.replaceMetadata(caller.accountId, before.id, {}, trx)
        return {}
      }, () => ({}))
    },

    async getLabels (caller: Caller, ref: string): Promise<LabelItems> {
      return await labelItems(caller.accountId, (await assets.find(caller, ref)).id)
    },
    /** `PUT /labels/:label_id` and `POST /labels [ids]` merge; `PUT /labels [ids]` replaces. Each answers every label of the asset. */
    async writeLabels (caller: Caller, ref: string, labelIds: string[], mode: WriteMode): Promise<LabelItems> {
      const wanted = [...new Set(labelIds)]
      return await assets.change(caller, ref, async (trx, before) => {
        await assertLabelsExist(trx, caller.accountId, wanted)
        if (mode === 'replace') await parts.removeLabels(caller.accountId, before.id, undefined, trx)
        await parts.addLabels(caller.accountId, before.id, wanted, trx)
        return {}
      }, async (after, trx) => await labelItems(caller.accountId, after.id, trx))
    },
    /** Removes one label (which must exist in the account) or, without `labelId`, all of them. */
    async removeLabels (caller: Caller, ref: string, labelId: string | undefined): Promise<Deleted> {
      return await assets.change(caller, ref, async (trx, before) => {
        if (labelId !== undefined) await assertLabelsExist(trx, caller.accountId, [labelId])
        await parts.removeLabels(caller.accountId, before.id, labelId, trx)
        return {}
      }, () => ({}))
    },

    /** The asset's player, or the account's default player when it has none of its own. */
    async getPlayer (caller: Caller, ref: string): Promise<ApiPlayer> {
      const asset = await assets.find(caller, ref)
      const player = asset.player_id === null ? await players.findDefault(caller.accountId) : await players.find(caller.accountId, asset.player_id)
      if (player === undefined) throw new ApiError('player_not_found', `Asset ${ref} has no player and the account has no default player.`)
      return toApiPlayer(player)
    },
    async setPlayer (caller: Caller, ref: string, playerId: string): Promise<ApiPlayer> {
      let found: ApiPlayer | undefined
      return await assets.change(caller, ref, async (trx) => {
        const player = await players.find(caller.accountId, playerId, trx)
        if (player === undefined) throw new ApiError('player_not_found', `Player ${playerId} does not exist.`)
        found = toApiPlayer(player)
        return { player_id: player.id }
      }, () => found as ApiPlayer)
    },

    async getPublishingRule (caller: Caller, ref: string): Promise<ApiPublishingRule> {
      const asset = await assets.find(caller, ref)
      const rule = asset.publishing_rule_id === null ? undefined : await rules.find(caller.accountId, asset.publishing_rule_id)
      if (rule === undefined) throw new ApiError('publishing_rule_not_found', `Asset ${ref} has no publishing rule.`)
      return toApiPublishingRule(rule)
    },
    async setPublishingRule (caller: Caller, ref: string, ruleId: string): Promise<ApiPublishingRule> {
      let found: ApiPublishingRule | undefined
      return await assets.change(caller, ref, async (trx) => {
        const rule = await rules.find(caller.accountId, ruleId, trx)
        if (rule === undefined) throw new ApiError('publishing_rule_not_found', `Publishing rule ${ruleId} does not exist.`)
        found = toApiPublishingRule(rule)
        return { publishing_rule_id: rule.id }
      }, () => found as ApiPublishingRule)
    },
    async removePublishingRule (caller: Caller, ref: string): Promise<Deleted> {
      return await assets.change(caller, ref, async () => ({ publishing_rule_id: null }), () => ({}))
    }
  }
}

export type PartsService = ReturnType<typeof createPartsService>
