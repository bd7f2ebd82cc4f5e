import type { Kysely } from 'kysely'
import type { Caller } from '../../auth/caller.ts'
import { assertAllowed, ownAssetsOnly } from '../../auth/roles.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/tables/index.ts'
import { ApiError, validationError } from '../../errors/api-error.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { urlSafeId } from '../../lib/ids.ts'
import { toPage, type Page, type PageParams } from '../../paging/index.ts'
import { parseInclude, type DefaultInclude } from '../../query/index.ts'
import type { SearchStore } from '../../search/index.ts'
import { toApiLabel } from '../labels/index.ts'
import { createPlayersRepository, toApiPlayer } from '../players/index.ts'
import { createPublishingRulesRepository } from '../publishing-rules/index.ts'
import { positionIn } from '../kit/crud-repository.ts'
import { uniqueOr } from '../kit/unique-violation.ts'
import type { WriteMode } from '../kit/write-mode.ts'
import { toApiAsset, toApiDeletedAsset, type AssetExtras } from './assets-format.ts'
import { isUploadType, type AssetType } from './assets-kinds.ts'
import { newAssetRow, patchChanges, replaceChanges } from './assets-input.ts'
import { assetListParams, assetPosition } from './assets-query.ts'
import { createAssetsRepository, DELETED_ORDER, type AssetChanges, type AssetRow, type DeletedAssetRow } from './assets-repository.ts'
import type { ApiAsset, ApiDeletedAsset, ApiProcessing, AssetsQuery, CreateAssetInput, UpdateAssetInput } from './assets-schemas.ts'
import { createPartsRepository } from './parts/parts-repository.ts'

export interface AssetsDeps {
  database: Database
  clock: Clock
  /** Answers the text predicates of `where`. */
  search: SearchStore
  /** Removes an asset's media files (the store prefix), after its deletion committed. */
  removeMedia?: (accountId: string, assetId: string) => Promise<void>
  /** Where the media jobs of these assets stand, for those whose processing is not over (the media tree answers it). */
  processingOf?: (accountId: string, rows: AssetRow[]) => Promise<Map<string, ApiProcessing | null>>
  /** Refuses `generate_captions` languages the service cannot transcribe (its engine's rule). */
  checkGeneratedCaptions?: (languages: string[]) => void
  /** Signs an original's URL (docs/media.md, "Originals"): the answers of callers who read the asset carry it. */
  signOriginal?: (url: string) => string
  /** Queues the processing of an asset's served media again, in the writing transaction (a change of `encryption`). */
  reprocess?: (trx: Kysely<DB>, accountId: string, assetId: string, servedVersion: string | null) => Promise<void>
}

/**
 * Assets. `ref` is an embed code or an external_id; `upload_only` callers reach only the assets they
 * created (another user's asset is as absent as another account's). Every change to an asset or its
 * parts goes through `change` (or `create`/`remove`): one transaction holding the account's lock, whose
 * index update follows from the rows it changes (src/outbox/derive-entries.ts).
 */
export function createAssetsService ({ database, clock, search, removeMedia, processingOf, checkGeneratedCaptions, reprocess, signOriginal }: AssetsDeps) {
  const assets = createAssetsRepository(database.db)
  const parts = createPartsRepository(database.db)
  const players = createPlayersRepository(database.db)
  const rules = createPublishingRulesRepository(database.db)

  /** The asset `ref` names, as the caller may see it. */
  async function find (caller: Caller, ref: string, trx: Kysely<DB> = database.db): Promise<AssetRow> {
    const row = await assets.findByRef(caller.accountId, ref, ownerOf(caller), trx)
    if (row === undefined) throw new ApiError('asset_not_found', `Asset ${ref} does not exist.`)
    return row
  }

  /**
   * Changes the asset `ref` names: `work` runs inside the transaction with the asset as it is, writes its
   * parts and returns the column changes; `updated_at` moves with every change. `answer` turns the
   * changed asset into what the request answers, inside the transaction (the answer an
   * `Idempotency-Key` stores with the write: docs/api.md).
   */
  async function change<T> (caller: Caller, ref: string, work: (trx: Kysely<DB>, before: AssetRow) => Promise<AssetChanges>,
    answer: (after: AssetRow, trx: Kysely<DB>) => T | Promise<T>): Promise<T> {
    return await withAccountLock(database, caller.accountId, async (trx) => {
      const before = await find(caller, ref, trx)
      const changes = { ...await work(trx, before), updated_at: storedTime(clock.now()) }
      await checkReferences(trx, caller, before.id, changes)
      await uniqueOr(assets.update(caller.accountId, before, changes, trx), idTaken)
      // Encryption is made when media is processed: a change makes the served media again.
      if (changes.encryption !== undefined && changes.encryption !== before.encryption) await reprocess?.(trx, caller.accountId, before.id, before.media_version)
      return await answer({ ...before, ...changes }, trx)
    })
  }

  /** Unique ids are free and the player and publishing rule exist in the account (checked under the lock). */
  async function checkReferences (trx: Kysely<DB>, caller: Caller, assetId: string, changes: AssetChanges): Promise<void> {
    const { accountId } = caller
    for (const column of ['external_id', 'youtube_id'] as const) {
      const value = changes[column]
      if (value === undefined || value === null) continue
      const holder = await assets.findByUnique(accountId, column, value, trx)
      if (holder !== undefined && holder.id !== assetId) throw idTakenFor(caller, column, value)
    }
    // Naming a player or a rule is using players and rules: the role must read them (docs/api.md, "Roles"),
    // as on the asset's player and publishing_rule sub-routes.
    if (changes.player_id != null) assertAllowed(caller.role, ['players', 'read'])
    if (changes.publishing_rule_id != null) assertAllowed(caller.role, ['publishing_rules', 'read'])
    if (changes.player_id != null && await players.find(accountId, changes.player_id, trx) === undefined) {
      throw validationError(`Field player_id: player ${changes.player_id} does not exist.`, { player_id: ['does not exist'] })
    }
    if (changes.publishing_rule_id != null && await rules.find(accountId, changes.publishing_rule_id, trx) === undefined) {
      throw validationError(`Field publishing_rule_id: publishing rule ${changes.publishing_rule_id} does not exist.`, { publishing_rule_id: ['does not exist'] })
    }
  }

  /** Maps rows to API assets with the `include`d parts, reading each part for the whole page in one query. */
  async function withExtras (caller: Caller, rows: AssetRow[], includes: ReadonlySet<DefaultInclude>): Promise<ApiAsset[]> {
    const { accountId } = caller
    // `include=player` shows players: the role must read players too (docs/api.md, "Roles").
    if (includes.has('player')) assertAllowed(caller.role, ['players', 'read'])
    const ids = rows.map((row) => row.id)
    const extras = new Map<string, AssetExtras>(ids.map((id) => [id, { signOriginal }]))
    if (includes.has('metadata')) {
      const pairs = new Map<string, Array<[string, string]>>(ids.map((id) => [id, []]))
      for (const entry of await parts.metadataOf(accountId, ids)) pairs.get(entry.asset_id)?.push([entry.name, entry.value])
      for (const [id, entries] of pairs) (extras.get(id) as AssetExtras).metadata = Object.fromEntries(entries)
    }
    if (includes.has('labels')) {
      for (const id of ids) (extras.get(id) as AssetExtras).labels = []
      for (const label of await parts.labelsOf(accountId, ids)) extras.get(label.asset_id)?.labels?.push(toApiLabel(label))
    }
    if (includes.has('player')) {
      const found = new Map((await players.findMany(accountId, [...new Set(rows.flatMap((row) => row.player_id ?? []))])).map((p) => [p.id, p]))
      const fallback = rows.some((row) => row.player_id === null) ? await players.findDefault(accountId) : undefined
      for (const row of rows) {
        const player = row.player_id === null ? fallback : found.get(row.player_id)
        ;(extras.get(row.id) as AssetExtras).player = player === undefined ? null : toApiPlayer(player)
      }
    }
    // Processing not over: a job waiting or running, or a playable asset whose ladder is still being made.
    const unsettled = rows.filter((row) => isUploadType(row.asset_type as AssetType) &&
      (row.status === 'processing' || ((row.status === 'live' || row.status === 'paused') && (row.version_progress ?? row.processing_progress) < 100)))
    if (processingOf !== undefined && unsettled.length > 0) {
      for (const [id, standing] of await processingOf(caller.accountId, unsettled)) (extras.get(id) as AssetExtras).processing = standing
    }
    return rows.map((row) => toApiAsset(row, extras.get(row.id)))
  }

  async function listWith (caller: Caller, query: AssetsQuery, page: PageParams, labelId: string | undefined): Promise<Page<ApiAsset>> {
    const params = await assetListParams({ search, database }, caller.accountId, query)
    const rows = await assets.page(caller.accountId, { ownerId: ownerOf(caller), labelId, where: params.filter, order: params.order }, page)
    const rowPage = toPage(rows, page, (row) => assetPosition(params.orderField, row), (row) => row)
    return { ...rowPage, items: await withExtras(caller, rowPage.items, params.includes) }
  }

  return {
    find,
    change,
    /** `GET /v2/assets`: keyset pages in the chosen order, filtered by `where`, with `include`d parts. */
    async list (caller: Caller, page: PageParams, query: AssetsQuery): Promise<Page<ApiAsset>> {
      return await listWith(caller, query, page, undefined)
    },
    /** `GET /v2/labels/:id/assets`: the assets carrying that label (not those of its child labels). */
    async listOfLabel (caller: Caller, labelId: string, query: AssetsQuery, page: PageParams): Promise<Page<ApiAsset>> {
      const [label] = await parts.findLabels(caller.accountId, [labelId])
      if (label === undefined) throw new ApiError('label_not_found', `Label ${labelId} does not exist.`)
      return await listWith(caller, query, page, label.id)
    },
    async get (caller: Caller, ref: string, include?: string): Promise<ApiAsset> {
      return (await withExtras(caller, [await find(caller, ref)], parseInclude(include)))[0] as ApiAsset
    },
    async create (caller: Caller, input: CreateAssetInput): Promise<ApiAsset> {
      const now = storedTime(clock.now())
      const row = { ...newAssetRow(input, { id: urlSafeId(32), createdBy: caller.userId }, now), account_id: caller.accountId }
      if (row.generate_captions !== null) checkGeneratedCaptions?.(JSON.parse(row.generate_captions) as string[])
      return await withAccountLock(database, caller.accountId, async (trx) => {
        await checkReferences(trx, caller, row.id, row)
        await uniqueOr(assets.insert(caller.accountId, row, trx), idTaken)
        return toApiAsset(row, { signOriginal })
      })
    },
    /** PATCH changes only the fields given; PUT returns the others to their defaults (the embed code stays). */
    async update (caller: Caller, ref: string, input: UpdateAssetInput, mode: WriteMode): Promise<ApiAsset> {
      return await change(caller, ref, async (_trx, before) => mode === 'merge' ? patchChanges(before, input) : replaceChanges(before, input as CreateAssetInput), (after) => toApiAsset(after, { signOriginal }))
    },
    /** Deletes the asset; it then appears in `/v2/deleted_assets`. */
    async remove (caller: Caller, ref: string): Promise<Record<string, never>> {
      let removedId = ''
      const answer = await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller, ref, trx)
        await assets.delete(caller.accountId, before, storedTime(clock.now()), trx)
        removedId = before.id
        return {}
      })
      // The files go once the row is gone: a worker still processing finds no asset and removes what it
      // wrote. A process that dies before this leaves them to the media worker's sweep.
      if (removeMedia !== undefined) {
        await removeMedia(caller.accountId, removedId)
        await assets.markMediaRemoved(caller.accountId, removedId, storedTime(clock.now()))
      }
      return answer
    },
    /** `GET /v2/deleted_assets`: newest deletion first. */
    async listDeleted (caller: Caller, page: PageParams): Promise<Page<ApiDeletedAsset>> {
      return toPage(await assets.pageDeleted(caller.accountId, ownerOf(caller), page), page, positionIn<DeletedAssetRow>(DELETED_ORDER), toApiDeletedAsset)
    }
  }
}

export type AssetsService = ReturnType<typeof createAssetsService>

/** The owner an asset query is narrowed to: the caller itself for `upload_only`, nobody otherwise. */
function ownerOf (caller: Caller): string | undefined {
  return ownAssetsOnly(caller.role) ? caller.userId : undefined
}

/**
 * The 409 of a taken unique id. A role that sees only its own assets is not told that another asset holds
 * it (which would confirm another user's id): the same words whoever holds the value.
 */
function idTakenFor (caller: Caller, column: 'external_id' | 'youtube_id', value: string): ApiError {
  if (ownAssetsOnly(caller.role)) return new ApiError('asset_id_taken', `Field ${column} ${value} cannot be used; choose another.`)
  return new ApiError('asset_id_taken', `Another asset of this account already has ${column} ${value}.`)
}

/** The checks run under the account lock; the unique indexes are the backstop if writers race anyway. */
function idTaken (): ApiError {
  return new ApiError('asset_id_taken', 'Another asset of this account already has this external_id or youtube_id.')
}
