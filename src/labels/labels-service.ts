import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import { ApiError } from '../errors/api-error.ts'
import { toPage, type Page, type PageParams } from '../paging/index.ts'
import { toBoolean } from '../http/schemas.ts'
import { fullPathsOf, prefixesOf } from './label-paths.ts'
import { toApiLabel, type ApiLabel } from './labels-format.ts'
import type { LabelRow, LabelsFilter } from './labels-repository.ts'
import { createLabelIn, deleteLabelIn, inLabelTransaction, updateLabelIn, type LabelsContext } from './labels-writes.ts'

type Bool = boolean | 'true' | 'false'

export interface LabelInput { name: string, parent_id?: string | null }
export interface LabelChanges { name?: string, parent_id?: string | null }

export async function listLabels (ctx: LabelsContext, accountId: string, query: { is_root?: Bool }, page: PageParams): Promise<Page<ApiLabel>> {
  const filter: LabelsFilter = query.is_root === undefined ? { kind: 'all' } : toBoolean(query.is_root) ? { kind: 'roots' } : { kind: 'non_roots' }
  return toPage(await ctx.labels.page(accountId, filter, page), page, positionOf, toApiLabel)
}

export async function listChildren (ctx: LabelsContext, accountId: string, labelId: string, page: PageParams): Promise<Page<ApiLabel>> {
  await mustFind(ctx, accountId, labelId)
  return toPage(await ctx.labels.page(accountId, { kind: 'children', parentId: labelId }, page), page, positionOf, toApiLabel)
}

export async function getLabel (ctx: LabelsContext, accountId: string, labelId: string): Promise<ApiLabel> {
  return toApiLabel(await mustFind(ctx, accountId, labelId))
}

export async function createLabel (ctx: LabelsContext, accountId: string, input: LabelInput): Promise<ApiLabel> {
  return await inLabelTransaction(ctx, accountId, async (trx) => {
    const parent = await parentOf(ctx, accountId, input.parent_id ?? null, trx)
    return toApiLabel(await createLabelIn(ctx, trx, accountId, input.name, parent))
  })
}

/** PATCH: changes only the fields given (`parent_id: null` moves the label to the top level). */
export async function updateLabel (ctx: LabelsContext, accountId: string, labelId: string, changes: LabelChanges): Promise<ApiLabel> {
  return await inLabelTransaction(ctx, accountId, async (trx) => {
    const before = await mustFind(ctx, accountId, labelId, trx)
    const parentId = changes.parent_id === undefined ? before.parent_id : changes.parent_id
    const parent = await parentOf(ctx, accountId, parentId, trx)
    return toApiLabel(await updateLabelIn(ctx, trx, accountId, before, { name: changes.name ?? before.name, parent }))
  })
}

/** PUT: replaces the label; a `parent_id` not given means the top level. The id stays. */
export async function replaceLabel (ctx: LabelsContext, accountId: string, labelId: string, input: LabelInput): Promise<ApiLabel> {
  return await updateLabel(ctx, accountId, labelId, { name: input.name, parent_id: input.parent_id ?? null })
}

export async function deleteLabel (ctx: LabelsContext, accountId: string, labelId: string, query: { recursive?: Bool }): Promise<Record<string, never>> {
  await inLabelTransaction(ctx, accountId, async (trx) => {
    const label = await mustFind(ctx, accountId, labelId, trx)
    await deleteLabelIn(ctx, trx, accountId, label, query.recursive !== undefined && toBoolean(query.recursive))
  })
  return {}
}

/** `GET /v2/labels/by_full_path/<paths>`: one label per path, in request order; 400 naming the missing ones. */
export async function findByFullPaths (ctx: LabelsContext, accountId: string, url: string): Promise<{ items: ApiLabel[] }> {
  const paths = fullPathsOf(url)
  const found = byFullName(await ctx.labels.findByFullNames(accountId, paths))
  const missing = paths.filter((path) => !found.has(path))
  if (missing.length > 0) {
    throw new ApiError('label_paths_missing', `These labels do not exist: ${missing.join(', ')}.`, { missing_labels: missing })
  }
  return { items: paths.map((path) => toApiLabel(found.get(path) as LabelRow)) }
}

/**
 * `POST /v2/labels/by_full_path/<paths>`: creates the missing labels along each path (parents first)
 * and returns the label of each path, existing or new, as a bare array in request order: the shape
 * Backlot answered and its clients read (`resp.body[0]`).
 */
export async function createByFullPaths (ctx: LabelsContext, accountId: string, url: string): Promise<ApiLabel[]> {
  const paths = fullPathsOf(url)
  return await inLabelTransaction(ctx, accountId, async (trx) => {
    const known = byFullName(await ctx.labels.findByFullNames(accountId, [...new Set(paths.flatMap(prefixesOf))], trx))
    for (const path of paths) {
      let parent: LabelRow | null = null
      for (const prefix of prefixesOf(path)) {
        let label = known.get(prefix)
        if (label === undefined) {
          label = await createLabelIn(ctx, trx, accountId, prefix.slice(prefix.lastIndexOf('/') + 1), parent)
          known.set(prefix, label)
        }
        parent = label
      }
    }
    return paths.map((path) => toApiLabel(known.get(path) as LabelRow))
  })
}

function positionOf (row: LabelRow): [string, string] {
  return [row.created_at, row.id]
}

function byFullName (rows: LabelRow[]): Map<string, LabelRow> {
  return new Map(rows.map((row) => [row.full_name, row]))
}

async function mustFind (ctx: LabelsContext, accountId: string, labelId: string, trx: Kysely<DB> = ctx.db): Promise<LabelRow> {
  const row = await ctx.labels.find(accountId, labelId, trx)
  if (row === undefined) throw new ApiError('label_not_found', `Label ${labelId} does not exist.`)
  return row
}

async function parentOf (ctx: LabelsContext, accountId: string, parentId: string | null, trx: Kysely<DB>): Promise<LabelRow | null> {
  if (parentId === null) return null
  const parent = await ctx.labels.find(accountId, parentId, trx)
  if (parent === undefined) throw new ApiError('label_parent_not_found', `Parent label ${parentId} does not exist.`)
  return parent
}
