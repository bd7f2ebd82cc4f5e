import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import { ApiError } from '../errors/api-error.ts'
import { toPage, type Page, type PageParams } from '../paging/index.ts'
import { applyInput, PLAYER_DEFAULTS, settingsOf, type PlayerInput } from './players-fields.ts'
import { toApiPlayer, type ApiPlayer } from './players-format.ts'
import { parseMetadata, patchedMetadata, replacedMetadata, type Metadata } from './players-metadata.ts'
import type { PlayerRow } from './players-repository.ts'
import { createPlayerIn, deletePlayerIn, inPlayerTransaction, updatePlayerIn, type PlayersContext } from './players-writes.ts'

export async function listPlayers (ctx: PlayersContext, accountId: string, page: PageParams): Promise<Page<ApiPlayer>> {
  const rows = await ctx.players.page(accountId, page)
  return toPage(rows, page, (row) => [row.created_at, row.id], toApiPlayer)
}

export async function getPlayer (ctx: PlayersContext, accountId: string, playerId: string): Promise<ApiPlayer> {
  return toApiPlayer(await mustFind(ctx, accountId, playerId))
}

/** POST: the defaults with the given fields applied (`name` is required by the schema). */
export async function createPlayer (ctx: PlayersContext, accountId: string, input: PlayerInput): Promise<ApiPlayer> {
  const settings = applyInput(PLAYER_DEFAULTS, input)
  return toApiPlayer(await inPlayerTransaction(ctx, accountId, async (trx) => await createPlayerIn(ctx, trx, accountId, settings)))
}

/** PATCH changes only the fields given; PUT (`replace`) sets every other field back to its default. */
export async function updatePlayer (ctx: PlayersContext, accountId: string, playerId: string, input: PlayerInput, replace = false): Promise<ApiPlayer> {
  return await inPlayerTransaction(ctx, accountId, async (trx) => {
    const before = await mustFind(ctx, accountId, playerId, trx)
    const settings = applyInput(replace ? PLAYER_DEFAULTS : settingsOf(before), input)
    return toApiPlayer(await updatePlayerIn(ctx, trx, accountId, before, { settings }))
  })
}

export async function replacePlayer (ctx: PlayersContext, accountId: string, playerId: string, input: PlayerInput): Promise<ApiPlayer> {
  return await updatePlayer(ctx, accountId, playerId, input, true)
}

export async function deletePlayer (ctx: PlayersContext, accountId: string, playerId: string): Promise<Record<string, never>> {
  await inPlayerTransaction(ctx, accountId, async (trx) => {
    await deletePlayerIn(ctx, trx, accountId, await mustFind(ctx, accountId, playerId, trx))
  })
  return {}
}

export async function getMetadata (ctx: PlayersContext, accountId: string, playerId: string): Promise<Metadata> {
  return parseMetadata((await mustFind(ctx, accountId, playerId)).metadata)
}

/** PUT replaces every pair. */
export async function replaceMetadata (ctx: PlayersContext, accountId: string, playerId: string, body: Metadata): Promise<Metadata> {
  const metadata = replacedMetadata(body)
  return await writeMetadata(ctx, accountId, playerId, () => metadata)
}

/** PATCH merges; a null value removes its name. */
export async function patchMetadata (ctx: PlayersContext, accountId: string, playerId: string, body: Record<string, string | null>): Promise<Metadata> {
  return await writeMetadata(ctx, accountId, playerId, (current) => patchedMetadata(current, body))
}

/** DELETE removes every pair. */
export async function deleteMetadata (ctx: PlayersContext, accountId: string, playerId: string): Promise<Record<string, never>> {
  await writeMetadata(ctx, accountId, playerId, () => ({}))
  return {}
}

async function writeMetadata (ctx: PlayersContext, accountId: string, playerId: string, change: (current: Metadata) => Metadata): Promise<Metadata> {
  return await inPlayerTransaction(ctx, accountId, async (trx) => {
    const before = await mustFind(ctx, accountId, playerId, trx)
    const metadata = change(parseMetadata(before.metadata))
    await updatePlayerIn(ctx, trx, accountId, before, { metadata })
    return metadata
  })
}

async function mustFind (ctx: PlayersContext, accountId: string, playerId: string, trx: Kysely<DB> = ctx.db): Promise<PlayerRow> {
  const row = await ctx.players.find(accountId, playerId, trx)
  if (row === undefined) throw new ApiError('player_not_found', `Player ${playerId} does not exist.`)
  return row
}
