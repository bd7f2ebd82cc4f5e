import type { Kysely } from 'kysely'
import type { Caller } from '../../auth/caller.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/tables/index.ts'
import { ApiError, validationError } from '../../errors/api-error.ts'
import { toBoolean } from '../../http/schemas.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { hexId } from '../../lib/ids.ts'
import { toPage, type Page, type PageParams } from '../../paging/index.ts'
import { BY_CREATION, positionIn } from '../kit/crud-repository.ts'
import { finder } from '../kit/finder.ts'
import { uniqueOr } from '../kit/unique-violation.ts'
import type { WriteMode } from '../kit/write-mode.ts'
import { fullPathsOf, prefixesOf } from './label-paths.ts'
import { toApiLabel } from './labels-format.ts'
import { createLabelsRepository, type LabelRow, type LabelsFilter } from './labels-repository.ts'
import type { ApiLabel, DeleteLabelQuery, LabelInput, LabelsQuery } from './labels-schemas.ts'

export interface LabelsDeps {
  database: Database
  clock: Clock
}

/**
 * The label tree. Every write holds the account's lock, because the tree's invariants (unique sibling
 * names, no cycles, `full_name` in step with the names above it) span rows. The index updates follow
 * from the rows each write changes (src/outbox/derive-entries.ts): a rename re-indexes the subtree and its assets.
 */
export function createLabelsService ({ database, clock }: LabelsDeps) {
  const labels = createLabelsRepository(database.db)
  const find = finder(labels, (id) => new ApiError('label_not_found', `Label ${id} does not exist.`))
  const position = positionIn<LabelRow>(BY_CREATION)

  async function parentOf (accountId: string, parentId: string | null, trx: Kysely<DB>): Promise<LabelRow | null> {
    if (parentId === null) return null
    const parent = await labels.find(accountId, parentId, trx)
    if (parent === undefined) throw new ApiError('label_parent_not_found', `Parent label ${parentId} does not exist.`)
    return parent
  }

  /** Creates `name` under `parent` (null: at the top level). */
  async function createIn (trx: Kysely<DB>, accountId: string, name: string, parent: LabelRow | null): Promise<LabelRow> {
    assertNameAllowed(name)
    const fullName = fullNameOf(parent, name)
    if (await labels.findSibling(accountId, parent?.id ?? null, name, trx) !== undefined) throw nameTaken(fullName)
    const now = storedTime(clock.now())
    const row: LabelRow = { id: hexId(), account_id: accountId, name, parent_id: parent?.id ?? null, full_name: fullName, created_at: now, updated_at: now }
    await uniqueOr(labels.insert(accountId, row, trx), () => nameTaken(fullName))
    return row
  }

  /** Renames and/or moves `before`; the `full_name` of its whole subtree follows in the same transaction. */
  async function moveIn (trx: Kysely<DB>, accountId: string, before: LabelRow, name: string, parent: LabelRow | null): Promise<LabelRow> {
    assertNameAllowed(name)
    if (parent !== null && (parent.id === before.id || parent.full_name.startsWith(`${before.full_name}/`))) {
      throw new ApiError('label_move_invalid', `Label ${before.full_name} cannot be moved under itself or one of its descendants.`)
    }
    const fullName = fullNameOf(parent, name)
    const sibling = await labels.findSibling(accountId, parent?.id ?? null, name, trx)
    if (sibling !== undefined && sibling.id !== before.id) throw nameTaken(fullName)
    // The place columns are written only when the full name changes: that change is what re-indexes the
    // labels under it and the assets carrying them.
    const moved = fullName !== before.full_name
    const changes = { ...(moved ? { name, parent_id: parent?.id ?? null, full_name: fullName } : {}), updated_at: storedTime(clock.now()) }
    await uniqueOr(labels.update(accountId, before.id, changes, trx), () => nameTaken(fullName))
    if (moved) await labels.renameDescendants(accountId, before.full_name, fullName, changes.updated_at, trx)
    return { ...before, ...changes }
  }

  async function page (caller: Caller, filter: LabelsFilter, params: PageParams): Promise<Page<ApiLabel>> {
    return toPage(await labels.page(caller.accountId, filter, params), params, position, toApiLabel)
  }

  return {
    async list (caller: Caller, params: PageParams, query: LabelsQuery): Promise<Page<ApiLabel>> {
      const filter: LabelsFilter = query.is_root === undefined ? { kind: 'all' } : toBoolean(query.is_root) ? { kind: 'roots' } : { kind: 'non_roots' }
      return await page(caller, filter, params)
    },
    async children (caller: Caller, id: string, params: PageParams): Promise<Page<ApiLabel>> {
      await find(caller.accountId, id)
      return await page(caller, { kind: 'children', parentId: id }, params)
    },
    async get (caller: Caller, id: string): Promise<ApiLabel> {
      return toApiLabel(await find(caller.accountId, id))
    },
    async create (caller: Caller, input: LabelInput): Promise<ApiLabel> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const parent = await parentOf(caller.accountId, input.parent_id ?? null, trx)
        return toApiLabel(await createIn(trx, caller.accountId, input.name as string, parent))
      })
    },
    /** PATCH changes only the fields given (`parent_id: null` moves the label to the top level); PUT without `parent_id` moves it there. */
    async update (caller: Caller, id: string, input: LabelInput, mode: WriteMode): Promise<ApiLabel> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller.accountId, id, trx)
        const parentId = input.parent_id !== undefined ? input.parent_id : mode === 'merge' ? before.parent_id : null
        const parent = await parentOf(caller.accountId, parentId, trx)
        return toApiLabel(await moveIn(trx, caller.accountId, before, input.name ?? before.name, parent))
      })
    },
    /** Deletes a label; one with children only when `recursive`, and then its whole subtree. */
    async remove (caller: Caller, id: string, query: DeleteLabelQuery): Promise<Record<string, never>> {
      const recursive = query.recursive !== undefined && toBoolean(query.recursive)
      await withAccountLock(database, caller.accountId, async (trx) => {
        const label = await find(caller.accountId, id, trx)
        if (!recursive && await labels.hasChildren(caller.accountId, label.id, trx)) {
          throw new ApiError('label_has_children', `Label ${label.full_name} has child labels; delete them first or pass recursive=true.`)
        }
        await labels.deleteSubtree(caller.accountId, label, trx)
      })
      return {}
    },
    /** `GET /v2/labels/by_full_path/<paths>`: one label per path, in request order; 400 naming the missing ones. */
    async findByFullPaths (caller: Caller, url: string): Promise<{ items: ApiLabel[] }> {
      const paths = fullPathsOf(url)
      const found = byFullName(await labels.findByFullNames(caller.accountId, paths))
      const missing = paths.filter((path) => !found.has(path))
      if (missing.length > 0) {
        throw new ApiError('label_paths_missing', `These labels do not exist: ${missing.join(', ')}.`, { missing_labels: missing })
      }
      return { items: paths.map((path) => toApiLabel(found.get(path) as LabelRow)) }
    },
    /**
     * `POST /v2/labels/by_full_path/<paths>`: creates the missing labels along each path (parents first)
     * and returns the label of each path, existing or new, as a bare array in request order: the shape
     * clients of this API family read (`resp.body[0]`).
     */
    async createByFullPaths (caller: Caller, url: string): Promise<ApiLabel[]> {
      const paths = fullPathsOf(url)
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const known = byFullName(await labels.findByFullNames(caller.accountId, [...new Set(paths.flatMap(prefixesOf))], trx))
        for (const path of paths) {
          let parent: LabelRow | null = null
          for (const prefix of prefixesOf(path)) {
            let label = known.get(prefix)
            if (label === undefined) {
              label = await createIn(trx, caller.accountId, prefix.slice(prefix.lastIndexOf('/') + 1), parent)
              known.set(prefix, label)
            }
            parent = label
          }
        }
        return paths.map((path) => toApiLabel(known.get(path) as LabelRow))
      })
    }
  }
}

export type LabelsService = ReturnType<typeof createLabelsService>

export function fullNameOf (parent: Pick<LabelRow, 'full_name'> | null, name: string): string {
  return `${parent?.full_name ?? ''}/${name}`
}

function assertNameAllowed (name: string): void {
  if (name.includes('/')) throw validationError('Field name must not contain "/".', { name: ['must not contain "/"'] })
}

function nameTaken (fullName: string): ApiError {
  return new ApiError('label_name_taken', `Label ${fullName} already exists.`)
}

function byFullName (rows: LabelRow[]): Map<string, LabelRow> {
  return new Map(rows.map((row) => [row.full_name, row]))
}
