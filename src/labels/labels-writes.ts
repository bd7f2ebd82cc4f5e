import type { Kysely } from 'kysely'
import type { AppContext } from '../app/context.ts'
import { lockAccount } from '../db/lock.ts'
import type { DB } from '../db/schema.ts'
import { ApiError, validationError } from '../errors/api-error.ts'
import { storedTime } from '../lib/clock.ts'
import { hexId } from '../lib/ids.ts'
import { recordChange, recordLabelTree } from '../outbox/index.ts'
import type { LabelRow, LabelsRepository } from './labels-repository.ts'

export type LabelsContext = Pick<AppContext, 'db' | 'database' | 'clock'> & { labels: LabelsRepository }

/**
 * The write path of labels: every change to the labels table goes through `inLabelTransaction` and one
 * of the three functions below. The transaction holds the account's write lock, because the tree
 * invariants (unique sibling names, no cycles, `full_name` in step) span rows. The search issue records
 * its outbox entries inside these functions, in the same transaction.
 */
export async function inLabelTransaction<T> (ctx: LabelsContext, accountId: string, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, ctx.database.dialect, accountId)
    return await work(trx)
  })
}

/** Creates `name` under `parent` (null: at the top level). */
export async function createLabelIn (ctx: LabelsContext, trx: Kysely<DB>, accountId: string, name: string, parent: LabelRow | null): Promise<LabelRow> {
  assertNameAllowed(name)
  const fullName = fullNameOf(parent, name)
  if (await ctx.labels.findSibling(accountId, parent?.id ?? null, name, trx) !== undefined) throw nameTaken(fullName)
  const now = storedTime(ctx.clock.now())
  const row: LabelRow = { id: hexId(), account_id: accountId, name, parent_id: parent?.id ?? null, full_name: fullName, created_at: now, updated_at: now }
  await uniqueOr(ctx.labels.insert(accountId, row, trx), fullName)
  await recordChange(trx, accountId, 'label', row.id)
  return row
}

/** Renames and/or moves `before`; the `full_name` of its whole subtree follows in the same transaction. */
export async function updateLabelIn (ctx: LabelsContext, trx: Kysely<DB>, accountId: string, before: LabelRow, next: { name: string, parent: LabelRow | null }): Promise<LabelRow> {
  assertNameAllowed(next.name)
  const { parent } = next
  if (parent !== null && (parent.id === before.id || parent.full_name.startsWith(`${before.full_name}/`))) {
    throw new ApiError('label_move_invalid', `Label ${before.full_name} cannot be moved under itself or one of its descendants.`)
  }
  const fullName = fullNameOf(parent, next.name)
  const sibling = await ctx.labels.findSibling(accountId, parent?.id ?? null, next.name, trx)
  if (sibling !== undefined && sibling.id !== before.id) throw nameTaken(fullName)
  const changes = { name: next.name, parent_id: parent?.id ?? null, full_name: fullName, updated_at: storedTime(ctx.clock.now()) }
  await uniqueOr(ctx.labels.update(accountId, before.id, changes, trx), fullName)
  if (fullName !== before.full_name) await ctx.labels.renameDescendants(accountId, before.full_name, fullName, changes.updated_at, trx)
  // A new full name changes the documents of the whole subtree and of the assets carrying it.
  if (fullName !== before.full_name) await recordLabelTree(trx, accountId, { id: before.id, full_name: fullName })
  else await recordChange(trx, accountId, 'label', before.id)
  return { ...before, ...changes }
}

/** Deletes a label; one with children only when `recursive`, and then its whole subtree. */
export async function deleteLabelIn (ctx: LabelsContext, trx: Kysely<DB>, accountId: string, label: LabelRow, recursive: boolean): Promise<void> {
  if (!recursive && await ctx.labels.hasChildren(accountId, label.id, trx)) {
    throw new ApiError('label_has_children', `Label ${label.full_name} has child labels; delete them first or pass recursive=true.`)
  }
  // Rows of asset_labels go with their labels through that table's ON DELETE CASCADE: their assets
  // are recorded for re-indexing first, while the links still say which they are.
  await recordLabelTree(trx, accountId, label)
  await ctx.labels.deleteSubtree(accountId, label, trx)
}

export function fullNameOf (parent: Pick<LabelRow, 'full_name'> | null, name: string): string {
  return `${parent?.full_name ?? ''}/${name}`
}

function assertNameAllowed (name: string): void {
  if (name.includes('/')) throw validationError('Field name must not contain "/".', { name: ['must not contain "/"'] })
}

function nameTaken (fullName: string): ApiError {
  return new ApiError('label_name_taken', `Label ${fullName} already exists.`)
}

/**
 * The sibling check above runs under the account lock; the unique index is the backstop when two
 * writers race anyway. Its violation is a 400 like the check's. The codes differ per engine.
 */
async function uniqueOr (write: Promise<void>, fullName: string): Promise<void> {
  try {
    await write
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') throw nameTaken(fullName)
    throw error
  }
}
