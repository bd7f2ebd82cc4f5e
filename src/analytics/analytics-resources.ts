import type { Kysely } from 'kysely'
import type { AccountsRepository } from '../resources/accounts/index.ts'
import type { DB } from '../db/tables/index.ts'
import type { Clock } from '../lib/clock.ts'
import type { AnalyticsResources } from './model.ts'

/**
 * How long an account's labels are reused by its label reports. Reading them costs about 150 ms for
 * 20,000 labelled assets (SQLite and PostgreSQL alike), more than many reports; a dashboard asks for
 * several at once. A change of labels therefore shows in label reports within 5 s, the freshness
 * reports have for events anyway (docs/analytics.md).
 */
export const LABELS_TTL_MS = 5000
/** A bound on memory: the labels of a large account take megabytes. */
const MAX_CACHED_ACCOUNTS = 32

/**
 * The resources side as analytics sees it (src/analytics/model.ts): which account a player's
 * `account_code` names, whether an asset (embed code) exists in it, and the labels of its assets.
 * Account first in every query, so one account's ids can never answer for another's.
 */
export function analyticsResources (db: Kysely<DB>, accounts: AccountsRepository, clock: Clock): AnalyticsResources {
  const labelsOfAccount = perAccountCache(async (accountId) => await accountLabels(db, accountId), clock)
  return {
    resolveAccount: async (code) => {
      const account = await accounts.findByCode(code)
      return account === undefined ? undefined : { accountId: account.id }
    },
    assetExists: async (accountId, assetId) => {
      const row = await db.selectFrom('assets').select('id').where('account_id', '=', accountId).where('id', '=', assetId).executeTakeFirst()
      return row !== undefined
    },
    labelsOf: async (accountId) => (await labelsOfAccount(accountId)).byAsset,
    labelNames: async (accountId) => (await labelsOfAccount(accountId)).names
  }
}

/** One load per account per LABELS_TTL_MS; concurrent callers share it, a failed load is not kept. */
function perAccountCache<T> (load: (accountId: string) => Promise<T>, clock: Clock): (accountId: string) => Promise<T> {
  const entries = new Map<string, { at: number, value: Promise<T> }>()
  return async (accountId) => {
    const now = clock.now()
    const hit = entries.get(accountId)
    if (hit !== undefined && now - hit.at < LABELS_TTL_MS) return await hit.value
    entries.delete(accountId)
    for (const [key, entry] of entries) {
      if (now - entry.at >= LABELS_TTL_MS || entries.size >= MAX_CACHED_ACCOUNTS) entries.delete(key)
    }
    const value = load(accountId)
    entries.set(accountId, { at: now, value })
    value.catch(() => { if (entries.get(accountId)?.value === value) entries.delete(accountId) })
    return await value
  }
}

export interface AccountLabels {
  /** Each labelled asset with its labels and every ancestor of them. */
  byAsset: Map<string, string[]>
  /** Every label's name, by id. */
  names: Map<string, string>
}

/**
 * Each labelled asset of the account with its labels and every ancestor of them, so that a report on
 * a label counts the assets of its children too (docs/analytics.md, "Reports"), and the labels' names.
 * Two queries whatever the depth.
 */
export async function accountLabels (db: Kysely<DB>, accountId: string): Promise<AccountLabels> {
  const labels = await db.selectFrom('labels').select(['id', 'parent_id', 'name']).where('account_id', '=', accountId).execute()
  // Through `labels` (indexed by account) to `asset_labels` (indexed by label): no scan of other accounts' rows.
  const links = await db.selectFrom('labels')
    .innerJoin('asset_labels', 'asset_labels.label_id', 'labels.id')
    .select(['asset_labels.asset_id', 'asset_labels.label_id'])
    .where('labels.account_id', '=', accountId)
    .where('asset_labels.account_id', '=', accountId)
    .execute()

  const parentOf = new Map(labels.map((label) => [label.id, label.parent_id]))
  const lineages = new Map<string, string[]>()
  const lineage = (labelId: string): string[] => {
    let known = lineages.get(labelId)
    if (known !== undefined) return known
    known = [labelId]
    // Bounded by the number of labels: a damaged tree with a cycle cannot loop forever.
    for (let parent = parentOf.get(labelId); parent != null && known.length <= labels.length; parent = parentOf.get(parent)) known.push(parent)
    lineages.set(labelId, known)
    return known
  }
  const byAsset = new Map<string, Set<string>>()
  for (const link of links) {
    let set = byAsset.get(link.asset_id)
    if (set === undefined) byAsset.set(link.asset_id, set = new Set())
    for (const id of lineage(link.label_id)) set.add(id)
  }
  return {
    byAsset: new Map([...byAsset].map(([asset, ids]) => [asset, [...ids]])),
    names: new Map(labels.map((label) => [label.id, label.name]))
  }
}
