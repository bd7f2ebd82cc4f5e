import type { Kysely } from 'kysely'
import type { Caller } from '../../../auth/caller.ts'
import { ownAssetsOnly } from '../../../auth/roles.ts'
import type { Database } from '../../../db/index.ts'
import type { DB } from '../../../db/tables/index.ts'
import { ApiError, validationError } from '../../../errors/api-error.ts'
import type { AssetRow } from '../assets-repository.ts'
import type { AssetsService } from '../assets-service.ts'
import { createLineupRepository } from './lineup-repository.ts'

/** The most assets a line-up holds. */
export const MAX_LINEUP = 500

/**
 * A channel asset's line-up (docs/resources.md, "Channel line-ups"): the embed codes of the assets it
 * plays, in order, each at most once, none of them a channel. Reads find the channel as the caller may
 * see it; writes go through the asset's own write path (`AssetsService.change`), so the channel's
 * `updated_at` moves with its line-up. Every operation answers the whole line-up.
 */
export function createLineupService ({ database }: { database: Database }, assets: Pick<AssetsService, 'find' | 'change'>) {
  const lineups = createLineupRepository(database.db)

  function channelOnly (asset: AssetRow): void {
    if (asset.asset_type !== 'channel') {
      throw new ApiError('lineup_not_supported', `Asset ${asset.id} is a ${asset.asset_type}; only channel assets have a line-up.`)
    }
  }

  /** The embed codes name assets the caller may see, each once, none a channel. */
  async function checkMembers (trx: Kysely<DB>, caller: Caller, codes: readonly string[]): Promise<void> {
    const repeated = [...new Set(codes.filter((code, i) => codes.indexOf(code) !== i))]
    if (repeated.length > 0) {
      throw validationError(`Request body names ${repeated.join(', ')} more than once; a line-up holds each asset once.`, { body: ['holds an embed code more than once'] })
    }
    const found = new Map((await lineups.assetsAmong(caller.accountId, codes, ownAssetsOnly(caller.role) ? caller.userId : undefined, trx)).map((row) => [row.id, row]))
    const missing = codes.filter((code) => !found.has(code))
    if (missing.length === 1) throw new ApiError('asset_not_found', `Asset ${missing[0]} does not exist.`)
    if (missing.length > 1) throw new ApiError('asset_not_found', `Assets ${missing.join(', ')} do not exist.`)
    const channels = codes.filter((code) => found.get(code)?.asset_type === 'channel')
    if (channels.length > 0) {
      throw validationError(`Asset${channels.length === 1 ? '' : 's'} ${channels.join(', ')} ${channels.length === 1 ? 'is a channel' : 'are channels'}; a line-up holds no channels.`, { body: ['names a channel'] })
    }
  }

  async function write (caller: Caller, ref: string, next: (current: string[], trx: Kysely<DB>) => Promise<string[]>): Promise<string[]> {
    let written: string[] = []
    return await assets.change(caller, ref, async (trx, channel) => {
      channelOnly(channel)
      written = await next(await lineups.lineupOf(caller.accountId, channel.id, trx), trx)
      await lineups.replaceLineup(caller.accountId, channel.id, written, trx)
      return {}
    }, () => written)
  }

  return {
    async get (caller: Caller, ref: string): Promise<string[]> {
      const channel = await assets.find(caller, ref)
      channelOnly(channel)
      return await lineups.lineupOf(caller.accountId, channel.id)
    },
    /** `PUT /lineup [codes]`: the array becomes the whole line-up. */
    async replace (caller: Caller, ref: string, codes: string[]): Promise<string[]> {
      return await write(caller, ref, async (_current, trx) => {
        await checkMembers(trx, caller, codes)
        return codes
      })
    },
    /** `PUT /lineup/:code`: appended at the end; an asset already in the line-up stays where it is. */
    async append (caller: Caller, ref: string, code: string): Promise<string[]> {
      return await write(caller, ref, async (current, trx) => {
        await checkMembers(trx, caller, [code])
        if (current.includes(code)) return current
        if (current.length >= MAX_LINEUP) throw validationError(`The line-up holds ${MAX_LINEUP} assets already, the most it may.`, { embed_code: [`would make the line-up longer than ${MAX_LINEUP}`] })
        return [...current, code]
      })
    },
    /** `DELETE /lineup/:code`: taken out (nothing happens if it is not there; it must exist). */
    async remove (caller: Caller, ref: string, code: string): Promise<string[]> {
      return await write(caller, ref, async (current, trx) => {
        if (!current.includes(code)) await assets.find(caller, code, trx)
        return current.filter((member) => member !== code)
      })
    }
  }
}

export type LineupService = ReturnType<typeof createLineupService>
