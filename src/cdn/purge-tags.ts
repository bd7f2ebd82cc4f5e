import { CREDENTIALS, type Invalidation } from '../db/index.ts'

/**
 * Purge tags: which cached answers a write can change (docs/credits-and-cache.md, "Freshness").
 * An answer is stored with the tags of what it shows; a committed change purges the tags of what it
 * changed. `a:<account>` everything of an account; `s:<user>` everything signed by a user; `i:<account>:<table>:<id>`
 * one resource (its URL and sub-resources); `l:<account>:<table>` the lists showing a table's rows;
 * `t:<account>:<table>` every answer showing that table at all.
 */

/** The table each top-level collection of `/v2/` shows. */
const COLLECTIONS: Readonly<Record<string, string>> = {
  assets: 'assets',
  deleted_assets: 'assets',
  labels: 'labels',
  players: 'players',
  publishing_rules: 'publishing_rules',
  syndications: 'syndications',
  users: 'users'
}

/** Sub-resources that show rows of another table: an asset's labels, a label's assets, a feed's assets… */
const SUB_RESOURCES: Readonly<Record<string, string>> = {
  assets: 'assets',
  labels: 'labels',
  children: 'labels',
  player: 'players',
  publishing_rule: 'publishing_rules',
  feed: 'assets'
}

/** The tags of an answer to `GET <path>`, signed by `userId` of `accountId`. */
export function answerTags (path: string, accountId: string, userId: string): string[] {
  const tags = [`a:${accountId}`, `s:${userId}`]
  const segments = path.slice('/v2/'.length).split('/')
  const table = COLLECTIONS[segments[0]]
  if (table === undefined) return tags
  const shows = (shown: string): void => { tags.push(`l:${accountId}:${shown}`, `t:${accountId}:${shown}`) }
  const id = segments[1]
  if (id === undefined || id === '' || (table === 'labels' && id === 'by_full_path')) {
    shows(table)
    return tags
  }
  const own = table === 'users' && id === 'me' ? userId : id
  tags.push(`i:${accountId}:${table}:${own}`, `t:${accountId}:${table}`)
  const sub = SUB_RESOURCES[segments[2] ?? '']
  if (sub !== undefined) shows(sub)
  return tags
}

/** The tags a committed change purges. */
export function purgeTags (change: Invalidation): string[] {
  const account = change.accountId
  if (change.everything === true) return [`a:${account}`]
  const tags: string[] = []
  for (const [table, ids] of Object.entries(change.tables)) {
    if (ids.includes('*')) {
      // Any user's key may have changed: so may everything any of them signed.
      tags.push(table === CREDENTIALS ? `a:${account}` : `t:${account}:${table}`)
      continue
    }
    if (table === CREDENTIALS) {
      for (const id of ids) tags.push(`s:${id}`)
      continue
    }
    tags.push(`l:${account}:${table}`)
    for (const id of ids) tags.push(`i:${account}:${table}:${id}`)
  }
  return tags
}
