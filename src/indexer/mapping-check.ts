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
 * The search store's state for `/ready`: "ok", "reindex required: …" when an index was written with
 * another mapping version (docs/search-and-indexing.md), or a thrown error when the store is unreachable.
 * Listing every index is not free on a large cluster, so the answer is kept for `cacheMs`.
 */
export function searchReadinessCheck (store: SearchStore, cacheMs = 30_000): () => Promise<string> {
  let cached: { at: number, state: string } | undefined
  return async () => {
    if (cached !== undefined && Date.now() - cached.at < cacheMs) return cached.state
    const state = describeOutdated(store, await outdatedIndices(store)) ?? 'ok'
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
