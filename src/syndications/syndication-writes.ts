import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import { ApiError, validationError } from '../errors/api-error.ts'
import { storedTime } from '../lib/clock.ts'
import { hexId } from '../lib/ids.ts'
import { recordChange } from '../outbox/index.ts'
import { newSyndicationRow, type CreateSyndicationInput, type SyndicationWrite } from './syndication-input.ts'
import type { SyndicationsContext } from './syndications-context.ts'
import type { SyndicationRow } from './syndications-repository.ts'

/**
 * The write path of syndications: every change to a syndication, its labels or its access keys goes
 * through one of these three functions, each one transaction; the search issue records its outbox
 * entry here, in the same transaction.
 */
export async function createSyndication (ctx: SyndicationsContext, accountId: string, input: CreateSyndicationInput): Promise<{ row: SyndicationRow, labelIds: string[] }> {
  const { row, labelIds } = newSyndicationRow(input, hexId(), storedTime(ctx.clock.now()))
  return await ctx.db.transaction().execute(async (trx) => {
    await assertLabelsExist(ctx, trx, accountId, labelIds)
    await ctx.syndications.insert(accountId, row, trx)
    await ctx.syndications.replaceLabels(accountId, row.id, labelIds, trx)
    await recordChange(trx, accountId, 'syndication', row.id)
    return { row: { ...row, account_id: accountId }, labelIds }
  })
}

/**
 * Changes a syndication: `change` runs inside the transaction with the syndication as it is, may write
 * its access keys, and returns the column and label changes; `updated_at` moves with every change.
 */
export async function updateSyndication (ctx: SyndicationsContext, accountId: string, syndicationId: string, change: (trx: Kysely<DB>, before: SyndicationRow) => Promise<SyndicationWrite>): Promise<SyndicationRow> {
  return await ctx.db.transaction().execute(async (trx) => {
    const before = await findSyndication(ctx, accountId, syndicationId, trx)
    const { changes, labelIds } = await change(trx, before)
    const next = { ...changes, updated_at: storedTime(ctx.clock.now()) }
    if (labelIds !== undefined) {
      await assertLabelsExist(ctx, trx, accountId, labelIds)
      await ctx.syndications.replaceLabels(accountId, before.id, labelIds, trx)
    }
    await ctx.syndications.update(accountId, before.id, next, trx)
    await recordChange(trx, accountId, 'syndication', before.id)
    return { ...before, ...next }
  })
}

export async function deleteSyndication (ctx: SyndicationsContext, accountId: string, syndicationId: string): Promise<Record<string, never>> {
  await ctx.db.transaction().execute(async (trx) => {
    const before = await findSyndication(ctx, accountId, syndicationId, trx)
    await ctx.syndications.delete(accountId, before.id, trx)
    await recordChange(trx, accountId, 'syndication', before.id)
  })
  return {}
}

export async function findSyndication (ctx: SyndicationsContext, accountId: string, syndicationId: string, trx: Kysely<DB> = ctx.db): Promise<SyndicationRow> {
  const row = await ctx.syndications.find(accountId, syndicationId, trx)
  if (row === undefined) throw new ApiError('syndication_not_found', `Syndication ${syndicationId} does not exist.`)
  return row
}

async function assertLabelsExist (ctx: SyndicationsContext, trx: Kysely<DB>, accountId: string, labelIds: string[]): Promise<void> {
  const found = new Set(await ctx.syndications.existingLabelIds(accountId, labelIds, trx))
  const missing = labelIds.filter((id) => !found.has(id))
  if (missing.length > 0) {
    const message = `Field include_labels: ${missing.length === 1 ? 'label' : 'labels'} ${missing.join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist.`
    throw validationError(message, { include_labels: [message] })
  }
}
