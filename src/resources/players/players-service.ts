import type { Kysely } from 'kysely'
import type { Caller } from '../../auth/caller.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/tables/index.ts'
import { ApiError } from '../../errors/api-error.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { hexId } from '../../lib/ids.ts'
import { toPage, type Page, type PageParams } from '../../paging/index.ts'
import { BY_CREATION, positionIn } from '../kit/crud-repository.ts'
import { finder } from '../kit/finder.ts'
import { metadataOf, writtenMetadata, type Metadata, type MetadataPatch } from '../kit/metadata.ts'
import { basisOf, type WriteMode } from '../kit/write-mode.ts'
import { toApiPlayer } from './players-format.ts'
import { createPlayersRepository, type PlayerRow } from './players-repository.ts'
import type { ApiPlayer, PlayerInput, PlayerSettings } from './players-schemas.ts'
import { applyInput, PLAYER_DEFAULTS, settingsOf, toColumns } from './players-input.ts'

export interface PlayersDeps {
  database: Database
  clock: Clock
}

/**
 * Players and their metadata. Every write holds the account's lock: one default player per account,
 * and metadata merges read, change and write in one go. The index updates follow from the rows each
 * write changes (src/outbox/derive-entries.ts): a new default re-indexes the players that lose the flag.
 */
export function createPlayersService ({ database, clock }: PlayersDeps) {
  const players = createPlayersRepository(database.db)
  const find = finder(players, (id) => new ApiError('player_not_found', `Player ${id} does not exist.`))
  const position = positionIn<PlayerRow>(BY_CREATION)

  /** Writes new settings and/or metadata over `before`; becoming the default clears it on the others. */
  async function write (trx: Kysely<DB>, accountId: string, before: PlayerRow, next: { settings?: PlayerSettings, metadata?: Metadata }): Promise<PlayerRow> {
    const updatedAt = storedTime(clock.now())
    const changes = {
      ...(next.settings !== undefined ? toColumns(next.settings) : {}),
      ...(next.metadata !== undefined ? { metadata: JSON.stringify(next.metadata) } : {}),
      updated_at: updatedAt
    }
    if (next.settings?.is_default === true) await clearDefault(trx, accountId, before.id, updatedAt)
    await players.update(accountId, before.id, changes, trx)
    return { ...before, ...changes }
  }

  /** Players that lose the default flag change too (their search documents carry it). */
  async function clearDefault (trx: Kysely<DB>, accountId: string, exceptId: string, at: string): Promise<void> {
    await players.clearDefault(accountId, exceptId, at, trx)
  }

  async function writeMetadata (caller: Caller, id: string, change: (current: Metadata) => Metadata): Promise<Metadata> {
    return await withAccountLock(database, caller.accountId, async (trx) => {
      const before = await find(caller.accountId, id, trx)
      const metadata = change(parsedMetadata(before))
      await write(trx, caller.accountId, before, { metadata })
      return metadata
    })
  }

  return {
    async list (caller: Caller, page: PageParams): Promise<Page<ApiPlayer>> {
      return toPage(await players.page(caller.accountId, page), page, position, toApiPlayer)
    },
    async get (caller: Caller, id: string): Promise<ApiPlayer> {
      return toApiPlayer(await find(caller.accountId, id))
    },
    /** What `get` answers when the read cache holds the row, at once; undefined otherwise (the lean lane, docs/benchmarks.md). */
    peek (caller: Caller, id: string): ApiPlayer | undefined {
      const row = players.peek(caller.accountId, id)
      return row === undefined ? undefined : toApiPlayer(row)
    },
    /** POST: the defaults with the given fields applied (`name` is required by the schema). */
    async create (caller: Caller, input: PlayerInput): Promise<ApiPlayer> {
      const settings = applyInput(PLAYER_DEFAULTS, input)
      const now = storedTime(clock.now())
      const row: PlayerRow = { id: hexId(), account_id: caller.accountId, ...toColumns(settings), metadata: '{}', created_at: now, updated_at: now }
      return await withAccountLock(database, caller.accountId, async (trx) => {
        if (settings.is_default) await clearDefault(trx, caller.accountId, row.id, now)
        await players.insert(caller.accountId, row, trx)
        return toApiPlayer(row)
      })
    },
    async update (caller: Caller, id: string, input: PlayerInput, mode: WriteMode): Promise<ApiPlayer> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller.accountId, id, trx)
        const settings = applyInput(basisOf(mode, settingsOf(before), PLAYER_DEFAULTS), input)
        return toApiPlayer(await write(trx, caller.accountId, before, { settings }))
      })
    },
    async remove (caller: Caller, id: string): Promise<Record<string, never>> {
      await withAccountLock(database, caller.accountId, async (trx) => {
        const player = await find(caller.accountId, id, trx)
        await players.delete(caller.accountId, player.id, trx)
      })
      return {}
    },
    async getMetadata (caller: Caller, id: string): Promise<Metadata> {
      return parsedMetadata(await find(caller.accountId, id))
    },
    async writeMetadata (caller: Caller, id: string, body: MetadataPatch, mode: WriteMode): Promise<Metadata> {
      return await writeMetadata(caller, id, (current) => writtenMetadata(current, body, mode, 'A player'))
    },
    async clearMetadata (caller: Caller, id: string): Promise<Record<string, never>> {
      await writeMetadata(caller, id, () => ({}))
      return {}
    }
  }
}

export type PlayersService = ReturnType<typeof createPlayersService>

function parsedMetadata (row: PlayerRow): Metadata {
  return metadataOf(Object.entries(JSON.parse(row.metadata) as Metadata))
}
