import { outdatedIndices, type IndexInfo, type SearchStore } from '../search/index.ts'
import type { WorkerLogger } from '../outbox/index.ts'

/** "reindex required: …" naming the outdated indices, or undefined when every index is current. */
export function describeOutdated (store: SearchStore, outdated: IndexInfo[]): string | undefined {
  if (outdated.length === 0) return undefined
  const shown = outdated.slice(0, 5).map((index) => `${index.name} (mapping ${index.mappingVersion ?? 'none'})`).join(', ')
  const more = outdated.length > 5 ? ` and ${outdated.length - 5} more` : ''
  return `reindex required: ${shown}${more} ≠ mapping ${store.mappingVersion}; run \`reelhouse reindex\``
}

/**
 * "reindex required: …" naming the accounts that hold resources but whose index is missing or empty
 * (text search would answer them `[]`), or undefined when every such account has documents.
 */
export async function describeMissing (store: SearchStore, accounts: string[]): Promise<string | undefined> {
  const missing: string[] = []
  // A missing index counts 0 (engines: a missing alias too).
  for (const account of accounts) {
    if (await store.count(account) === 0) missing.push(store.indexName(account))
  }
  if (missing.length === 0) return undefined
  const more = missing.length > 5 ? ` and ${missing.length - 5} more` : ''
  return `reindex required: ${missing.slice(0, 5).join(', ')}${more} missing or empty while the database holds resources; run \`reelhouse reindex\``
}

/**
 * The search store's state for `/ready`: "ok", "reindex required: …" when an index was written with
 * another mapping version, or is missing or empty while its account holds resources (given
 * `accountsWithContent`; docs/search-and-indexing.md), or a thrown error when the store is unreachable.
 * Listing every index is not free on a large cluster, so the answer is kept for `cacheMs`.
 */
export function searchReadinessCheck (store: SearchStore, accountsWithContent?: () => Promise<string[]>, cacheMs = 30_000): () => Promise<string> {
  let cached: { at: number, state: string } | undefined
  return async () => {
    if (cached !== undefined && Date.now() - cached.at < cacheMs) return cached.state
    const state = describeOutdated(store, await outdatedIndices(store)) ??
      (accountsWithContent === undefined ? undefined : await describeMissing(store, await accountsWithContent())) ?? 'ok'
    cached = { at: Date.now(), state }
    return state
  }
}

/** Logs "reindex required" at start when an index is outdated; never throws. */
export async function logOutdatedIndices (store: SearchStore, logger: WorkerLogger): Promise<void> {
  try {
    const outdated = await outdatedIndices(store)
    const message = describeOutdated(store, outdated)
    if (message !== undefined) logger.warn({ indices: outdated.map((index) => index.name), mappingVersion: store.mappingVersion }, message)
  } catch (error) {
    logger.warn({ err: error }, 'search store unreachable; cannot check the index mapping versions')
  }
}
