import { ApiError } from '../errors/api-error.ts'
import type { Auth } from '../http/request-types.ts'
import { storedTime } from '../lib/clock.ts'
import { urlSafeId } from '../lib/ids.ts'
import { toPage, type Page, type PageParams } from '../paging/index.ts'
import { syndicationWrite, type CreateSyndicationInput, type UpdateSyndicationInput } from './syndication-input.ts'
import * as writes from './syndication-writes.ts'
import type { SyndicationsContext } from './syndications-context.ts'
import { toApiAccessKey, toApiSyndication, type ApiAccessKey, type ApiSyndication } from './syndications-format.ts'
import type { SyndicationRow } from './syndications-repository.ts'

/** A syndication holds at most this many access keys. */
export const MAX_ACCESS_KEYS = 100

export async function listSyndications (ctx: SyndicationsContext, auth: Auth, page: PageParams): Promise<Page<ApiSyndication>> {
  const rows = await ctx.syndications.page(auth.accountId, page)
  const labels = await labelIdsBySyndication(ctx, auth.accountId, rows)
  return toPage(rows, page, (row) => [row.created_at, row.id], (row) => toApiSyndication(row, labels.get(row.id) ?? [], auth.accountCode))
}

export async function getSyndication (ctx: SyndicationsContext, auth: Auth, syndicationId: string): Promise<ApiSyndication> {
  return await withLabels(ctx, auth, await writes.findSyndication(ctx, auth.accountId, syndicationId))
}

export async function createSyndication (ctx: SyndicationsContext, auth: Auth, input: CreateSyndicationInput): Promise<ApiSyndication> {
  const { row, labelIds } = await writes.createSyndication(ctx, auth.accountId, input)
  return toApiSyndication(row, labelIds, auth.accountCode)
}

/** PATCH changes only the fields given; PUT returns the others to their defaults. */
export async function updateSyndication (ctx: SyndicationsContext, auth: Auth, syndicationId: string, input: UpdateSyndicationInput, mode: 'patch' | 'replace'): Promise<ApiSyndication> {
  const row = await writes.updateSyndication(ctx, auth.accountId, syndicationId, async () => syndicationWrite(input, mode))
  return await withLabels(ctx, auth, row)
}

export async function deleteSyndication (ctx: SyndicationsContext, auth: Auth, syndicationId: string): Promise<Record<string, never>> {
  return await writes.deleteSyndication(ctx, auth.accountId, syndicationId)
}

export async function listAccessKeys (ctx: SyndicationsContext, auth: Auth, syndicationId: string): Promise<{ items: ApiAccessKey[] }> {
  const syndication = await writes.findSyndication(ctx, auth.accountId, syndicationId)
  return { items: (await ctx.syndications.accessKeysOf(auth.accountId, syndication.id)).map(toApiAccessKey) }
}

/** A new random access key; feeds of syndications with `require_access_key` need one. */
export async function createAccessKey (ctx: SyndicationsContext, auth: Auth, syndicationId: string): Promise<ApiAccessKey> {
  const key = { access_key: urlSafeId(32), created_at: storedTime(ctx.clock.now()) }
  await writes.updateSyndication(ctx, auth.accountId, syndicationId, async (trx, before) => {
    if ((await ctx.syndications.accessKeysOf(auth.accountId, before.id, trx)).length >= MAX_ACCESS_KEYS) {
      throw new ApiError('conflict', `Syndication ${syndicationId} already has ${MAX_ACCESS_KEYS} access keys; delete one first.`)
    }
    await ctx.syndications.insertAccessKey(auth.accountId, { ...key, syndication_id: before.id }, trx)
    return { changes: {}, labelIds: undefined }
  })
  return toApiAccessKey({ ...key, account_id: auth.accountId, syndication_id: syndicationId })
}

export async function deleteAccessKey (ctx: SyndicationsContext, auth: Auth, syndicationId: string, accessKey: string): Promise<Record<string, never>> {
  await writes.updateSyndication(ctx, auth.accountId, syndicationId, async (trx, before) => {
    if (!await ctx.syndications.deleteAccessKey(auth.accountId, before.id, accessKey, trx)) {
      throw new ApiError('not_found', `Access key ${accessKey} does not exist.`)
    }
    return { changes: {}, labelIds: undefined }
  })
  return {}
}

async function withLabels (ctx: SyndicationsContext, auth: Auth, row: SyndicationRow): Promise<ApiSyndication> {
  const labels = await labelIdsBySyndication(ctx, auth.accountId, [row])
  return toApiSyndication(row, labels.get(row.id) ?? [], auth.accountCode)
}

async function labelIdsBySyndication (ctx: SyndicationsContext, accountId: string, rows: SyndicationRow[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>()
  for (const { syndication_id: id, label_id: labelId } of await ctx.syndications.labelIdsOf(accountId, rows.map((row) => row.id))) {
    out.set(id, [...out.get(id) ?? [], labelId])
  }
  return out
}
