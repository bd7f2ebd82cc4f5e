import { isAbsolute, resolve } from 'node:path'
import { setNativeLibraryDefault } from '../../config/index.ts'
import type { AnalyticsStore, StoreOptions } from './store.ts'

/**
 * DuckDB's allocator (a jemalloc built into it) keeps pages a query freed for up to five seconds, then
 * hands them back lazily (the kernel counts them as the process's until it needs the memory) and for good
 * only five seconds later. Under a steady load that is 20-30 MB held for nothing: a tenth of a second
 * here, then handed back at once (docs/deployment.md, "Memory").
 */
const DUCKDB_ALLOCATOR_CONF = 'dirty_decay_ms:100,muzzy_decay_ms:0'

/**
 * Opens the store that ANALYTICS_URL names: unset → DuckDB file `analytics.duckdb` in the data
 * directory; `duckdb:<path>` (relative to the data directory; `duckdb::memory:` for tests);
 * `postgres://…` / `postgresql://…`.
 */
export async function openAnalyticsStore (url: string | undefined, options: StoreOptions): Promise<AnalyticsStore> {
  if (url === undefined || url.startsWith('duckdb:')) {
    let path = url === undefined ? 'analytics.duckdb' : url.slice('duckdb:'.length).replace(/^\/\/(?=\/)/, '')
    if (path !== ':memory:' && !isAbsolute(path)) path = resolve(options.dataDir, path)
    // Read by DuckDB's allocator as its library loads, so set before the import; an operator's own value wins.
    setNativeLibraryDefault('DUCKDB_JE_MALLOC_CONF', DUCKDB_ALLOCATOR_CONF)
    const { openDuckDbStore } = await import('./duckdb-store.ts')
    return await openDuckDbStore(path, options.duckdb)
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { openPostgresStore } = await import('./postgres-store.ts')
    return await openPostgresStore(url, options)
  }
  throw new Error(`ANALYTICS_URL must be duckdb:<file> or postgres://…, not ${url}`)
}
