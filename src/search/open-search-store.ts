import { join } from 'node:path'
import type { Config } from '../config/index.ts'
import { createSearchStore } from './create-search-store.ts'
import type { SearchStore } from './search-store.ts'

/** The embedded search store's file, beside the database in the data directory. */
export function searchDatabasePath (config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'search.sqlite')
}

/** The search store the configuration names: SEARCH_URL, else SQLite FTS5 in the data directory. */
export async function openSearchStore (config: Pick<Config, 'dataDir' | 'searchUrl' | 'indexPrefix' | 'sqliteCacheKb'>): Promise<SearchStore> {
  return await createSearchStore({ url: config.searchUrl, prefix: config.indexPrefix, sqlitePath: searchDatabasePath(config), sqliteCacheKb: config.sqliteCacheKb })
}
