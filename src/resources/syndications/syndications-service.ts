import type { Kysely } from 'kysely'
import type { Caller } from '../../auth/caller.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/tables/index.ts'
import { ApiError, validationError } from '../../errors/api-error.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { hexId, urlSafeId } from '../../lib/ids.ts'
import { toPage, type Page, type PageParams } from '../../paging/index.ts'
import { BY_CREATION, positionIn } from '../kit/crud-repository.ts'
import { finder } from '../kit/finder.ts'
import type { WriteMode } from '../kit/write-mode.ts'
import { toApiAccessKey, toApiSyndication } from './syndications-format.ts'
import { createSyndicationsRepository, type SyndicationRow } from './syndications-repository.ts'
import type { ApiAccessKey, ApiSyndication, CreateSyndicationInput, UpdateSyndicationInput } from './syndications-schemas.ts'
import { syndicationWrite, type SyndicationWrite } from './syndications-input.ts'

/** A syndication holds at most this many access keys. */
export const MAX_ACCESS_KEYS = 100

export interface SyndicationsDeps {
  database: Database
  clock: Clock
}

/**
 * Syndications, their labels and access keys. Every change is one transaction that records the
 * syndication's index update with it.
 */
export function createSyndicationsService ({ database, clock }: SyndicationsDeps) {
  const syndications = createSyndicationsRepository(database.db)
  const find = finder(syndications, (id) => new ApiError('syndication_not_found', `Syndication ${id} does not exist.`))
  const position = positionIn<SyndicationRow>(BY_CREATION)

  /**
   * Changes a syndication under the account's lock: `work` runs inside the transaction with the
   * syndication as it is, may write its access keys, and returns the column and label changes;
   * `updated_at` moves with every change. `answer` turns the changed syndication into what the request
   * answers, inside the transaction (the answer an `Idempotency-Key` stores with the write: docs/api.md).
   */
  async function change<T> (accountId: string, id: string, work: (trx: Kysely<DB>, before: SyndicationRow) => Promise<SyndicationWrite>,
    answer: (after: SyndicationRow, trx: Kysely<DB>) => T | Promise<T>): Promise<T> {
    return await withAccountLock(database, accountId, async (trx) => {
      const before = await find(accountId, id, trx)
      const { changes, labelIds } = await work(trx, before)
      const next = { ...changes, updated_at: storedTime(clock.now()) }
      if (labelIds !== undefined) await replaceLabels(trx, accountId, before.id, labelIds)
      await syndications.update(accountId, before.id, next, trx)
      return await answer({ ...before, ...next }, trx)
    })
  }

  async function replaceLabels (trx: Kysely<DB>, accountId: string, id: string, labelIds: string[]): Promise<void> {
    const found = new Set(await syndications.existingLabelIds(accountId, labelIds, trx))
    const missing = labelIds.filter((labelId) => !found.has(labelId))
    if (missing.length > 0) {
      const message = `Field include_labels: ${missing.length === 1 ? 'label' : 'labels'} ${missing.join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist.`
      throw validationError(message, { include_labels: [message] })
    }
    await syndications.replaceLabels(accountId, id, labelIds, trx)
  }

  async function withLabels (caller: Caller, rows: SyndicationRow[], trx?: Kysely<DB>): Promise<ApiSyndication[]> {
    const labels = new Map<string, string[]>()
    for (const { syndication_id: id, label_id: labelId } of await syndications.labelIdsOf(caller.accountId, rows.map((row) => row.id), trx)) {
      labels.set(id, [...labels.get(id) ?? [], labelId])
    }
    return rows.map((row) => toApiSyndication(row, labels.get(row.id) ?? [], caller.accountCode))
  }

  return {
    async list (caller: Caller, page: PageParams): Promise<Page<ApiSyndication>> {
      const rowPage = toPage(await syndications.page(caller.accountId, page), page, position, (row) => row)
      return { ...rowPage, items: await withLabels(caller, rowPage.items) }
    },
    async get (caller: Caller, id: string): Promise<ApiSyndication> {
      return (await withLabels(caller, [await find(caller.accountId, id)]))[0] as ApiSyndication
    },
    async create (caller: Caller, input: CreateSyndicationInput): Promise<ApiSyndication> {
      const { changes, labelIds = [] } = syndicationWrite(input, 'replace')
      const now = storedTime(clock.now())
      const row = { ...changes, id: hexId(), account_id: caller.accountId, created_at: now, updated_at: now } as SyndicationRow
      return await withAccountLock(database, caller.accountId, async (trx) => {
        await syndications.insert(caller.accountId, row, trx)
        await replaceLabels(trx, caller.accountId, row.id, labelIds)
        return toApiSyndication(row, labelIds, caller.accountCode)
      })
    },
    /** PATCH changes only the fields given; PUT returns the others to their defaults. */
    async update (caller: Caller, id: string, input: UpdateSyndicationInput, mode: WriteMode): Promise<ApiSyndication> {
      return await change(caller.accountId, id, async () => syndicationWrite(input, mode),
        async (after, trx) => (await withLabels(caller, [after], trx))[0] as ApiSyndication)
    },
    async remove (caller: Caller, id: string): Promise<Record<string, never>> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller.accountId, id, trx)
        await syndications.delete(caller.accountId, before.id, trx)
        return {}
      })
    },
    async listAccessKeys (caller: Caller, id: string): Promise<{ items: ApiAccessKey[] }> {
      const syndication = await find(caller.accountId, id)
      return { items: (await syndications.accessKeysOf(caller.accountId, syndication.id)).map(toApiAccessKey) }
    },
    /** A new random access key; feeds of syndications with `require_access_key` need one. */
    async createAccessKey (caller: Caller, id: string): Promise<ApiAccessKey> {
      const key = { access_key: urlSafeId(32), created_at: storedTime(clock.now()) }
      return await change(caller.accountId, id, async (trx, before) => {
        if ((await syndications.accessKeysOf(caller.accountId, before.id, trx)).length >= MAX_ACCESS_KEYS) {
          throw new ApiError('conflict', `Syndication ${id} already has ${MAX_ACCESS_KEYS} access keys; delete one first.`)
        }
        await syndications.insertAccessKey(caller.accountId, { ...key, syndication_id: before.id }, trx)
        return { changes: {}, labelIds: undefined }
      }, () => toApiAccessKey({ ...key, account_id: caller.accountId, syndication_id: id }))
    },
    async deleteAccessKey (caller: Caller, id: string, accessKey: string): Promise<Record<string, never>> {
      return await change(caller.accountId, id, async (trx, before) => {
        if (!await syndications.deleteAccessKey(caller.accountId, before.id, accessKey, trx)) {
          throw new ApiError('not_found', `Access key ${accessKey} does not exist.`)
        }
        return { changes: {}, labelIds: undefined }
      }, () => ({}))
    }
  }
}

export type SyndicationsService = ReturnType<typeof createSyndicationsService>
