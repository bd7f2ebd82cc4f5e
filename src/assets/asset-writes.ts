import type { Kysely } from 'kysely'
import { lockAccount } from '../db/lock.ts'
import type { DB } from '../db/schema.ts'
import { ApiError, validationError } from '../errors/api-error.ts'
import type { Auth } from '../http/request-types.ts'
import { storedTime } from '../lib/clock.ts'
import { urlSafeId } from '../lib/ids.ts'
import { recordChange } from '../outbox/index.ts'
import { newAssetRow, type CreateAssetInput } from './asset-input.ts'
import { ownerOf, type AssetsContext } from './assets-context.ts'
import type { AssetChanges, AssetRow } from './assets-repository.ts'

/**
 * The write path of assets. Every change to an asset or its parts (metadata, labels, player,
 * publishing rule) goes through one of these three functions, each one transaction holding the
 * account's write lock; the search issue records its outbox entry here, in the same transaction.
 */
export async function createAsset (ctx: AssetsContext, auth: Auth, input: CreateAssetInput): Promise<AssetRow> {
  const now = storedTime(ctx.clock.now())
  const row = { ...newAssetRow(input, { id: urlSafeId(32), createdBy: auth.userId }, now), account_id: auth.accountId }
  return await inAssetTransaction(ctx, auth.accountId, async (trx) => {
    await checkReferences(ctx, trx, auth.accountId, row.id, row)
    await uniqueOr(ctx.assets.insert(auth.accountId, row, trx))
    await recordChange(trx, auth.accountId, 'asset', row.id)
    return row
  })
}

/**
 * Changes the asset `ref` names (embed code or external_id): `change` runs inside the transaction with
 * the asset as it is, writes its parts and returns the column changes; `updated_at` moves with every change.
 */
export async function updateAsset (ctx: AssetsContext, auth: Auth, ref: string, change: (trx: Kysely<DB>, before: AssetRow) => Promise<AssetChanges>): Promise<AssetRow> {
  return await inAssetTransaction(ctx, auth.accountId, async (trx) => {
    const before = await findAsset(ctx, auth, ref, trx)
    const changes = { ...await change(trx, before), updated_at: storedTime(ctx.clock.now()) }
    await checkReferences(ctx, trx, auth.accountId, before.id, changes)
    await uniqueOr(ctx.assets.update(auth.accountId, before.id, changes, trx))
    await recordChange(trx, auth.accountId, 'asset', before.id)
    return { ...before, ...changes }
  })
}

/** Deletes the asset; it then appears in `/v2/deleted_assets`. */
export async function deleteAsset (ctx: AssetsContext, auth: Auth, ref: string): Promise<Record<string, never>> {
  await inAssetTransaction(ctx, auth.accountId, async (trx) => {
    const before = await findAsset(ctx, auth, ref, trx)
    await ctx.assets.delete(auth.accountId, before, storedTime(ctx.clock.now()), trx)
    await recordChange(trx, auth.accountId, 'asset', before.id)
  })
  return {}
}

/** The asset `ref` names, as the caller may see it: another account's, or another user's for `upload_only`, is a 404. */
export async function findAsset (ctx: AssetsContext, auth: Auth, ref: string, trx: Kysely<DB> = ctx.db): Promise<AssetRow> {
  const row = await ctx.assets.findByRef(auth.accountId, ref, ownerOf(auth), trx)
  if (row === undefined) throw new ApiError('asset_not_found', `Asset ${ref} does not exist.`)
  return row
}

async function inAssetTransaction<T> (ctx: AssetsContext, accountId: string, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, ctx.database.dialect, accountId)
    return await work(trx)
  })
}

/** Unique ids are free and the player and publishing rule exist in the account (checked under the lock). */
async function checkReferences (ctx: AssetsContext, trx: Kysely<DB>, accountId: string, assetId: string, changes: AssetChanges): Promise<void> {
  for (const column of ['external_id', 'youtube_id'] as const) {
    const value = changes[column]
    if (value === undefined || value === null) continue
    const holder = await ctx.assets.findByUnique(accountId, column, value, trx)
    if (holder !== undefined && holder.id !== assetId) throw taken(column, value)
  }
  if (changes.player_id != null && await ctx.links.findPlayer(accountId, changes.player_id, trx) === undefined) {
    throw validationError(`Field player_id: player ${changes.player_id} does not exist.`, { player_id: ['does not exist'] })
  }
  if (changes.publishing_rule_id != null && await ctx.links.findPublishingRule(accountId, changes.publishing_rule_id, trx) === undefined) {
    throw validationError(`Field publishing_rule_id: publishing rule ${changes.publishing_rule_id} does not exist.`, { publishing_rule_id: ['does not exist'] })
  }
}

function taken (column: 'external_id' | 'youtube_id', value: string): ApiError {
  return new ApiError('asset_id_taken', `Another asset of this account already has ${column} ${value}.`)
}

/** The checks above run under the account lock; the unique indexes are the backstop if writers race anyway. */
async function uniqueOr (write: Promise<void>): Promise<void> {
  try {
    await write
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') throw new ApiError('asset_id_taken', 'Another asset of this account already has this external_id or youtube_id.')
    throw error
  }
}
