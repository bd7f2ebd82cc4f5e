import type { Kysely } from 'kysely'
import type { AppContext } from '../app/context.ts'
import { lockAccount } from '../db/lock.ts'
import type { DB } from '../db/schema.ts'
import { storedTime } from '../lib/clock.ts'
import { hexId } from '../lib/ids.ts'
import { recordChange, recordChanges } from '../outbox/index.ts'
import { toColumns, type PlayerSettings } from './players-fields.ts'
import type { Metadata } from './players-metadata.ts'
import type { PlayerRow, PlayersRepository } from './players-repository.ts'

export type PlayersContext = Pick<AppContext, 'db' | 'database' | 'clock'> & { players: PlayersRepository }

/**
 * The write path of players: every change to the players table goes through `inPlayerTransaction` and
 * one of the three functions below. The transaction holds the account's write lock (one default player
 * per account; metadata merges are read-modify-write). The search issue records its outbox entries
 * inside these functions, in the same transaction.
 */
export async function inPlayerTransaction<T> (ctx: PlayersContext, accountId: string, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, ctx.database.dialect, accountId)
    return await work(trx)
  })
}

export async function createPlayerIn (ctx: PlayersContext, trx: Kysely<DB>, accountId: string, settings: PlayerSettings): Promise<PlayerRow> {
  const now = storedTime(ctx.clock.now())
  const row: PlayerRow = { id: hexId(), account_id: accountId, ...toColumns(settings), metadata: '{}', created_at: now, updated_at: now }
  // Players that lose the default flag change too: their documents carry it.
  if (settings.is_default) await recordChanges(trx, accountId, 'player', await ctx.players.clearDefault(accountId, row.id, now, trx))
  await ctx.players.insert(accountId, row, trx)
  await recordChange(trx, accountId, 'player', row.id)
  return row
}

/** Writes new settings and/or metadata over `before`; becoming the default clears it on the others. */
export async function updatePlayerIn (ctx: PlayersContext, trx: Kysely<DB>, accountId: string, before: PlayerRow, next: { settings?: PlayerSettings, metadata?: Metadata }): Promise<PlayerRow> {
  const updatedAt = storedTime(ctx.clock.now())
  const changes = {
    ...(next.settings !== undefined ? toColumns(next.settings) : {}),
    ...(next.metadata !== undefined ? { metadata: JSON.stringify(next.metadata) } : {}),
    updated_at: updatedAt
  }
  if (next.settings?.is_default === true) await recordChanges(trx, accountId, 'player', await ctx.players.clearDefault(accountId, before.id, updatedAt, trx))
  await ctx.players.update(accountId, before.id, changes, trx)
  await recordChange(trx, accountId, 'player', before.id)
  return { ...before, ...changes }
}

export async function deletePlayerIn (ctx: PlayersContext, trx: Kysely<DB>, accountId: string, player: PlayerRow): Promise<void> {
  await ctx.players.delete(accountId, player.id, trx)
  await recordChange(trx, accountId, 'player', player.id)
}
