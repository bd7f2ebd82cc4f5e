import { isAbsolute, resolve } from 'node:path'
import type { AnalyticsStore, StoreOptions } from './store.ts'

/**
 * Opens the store that ANALYTICS_URL names: unset → DuckDB file `analytics.duckdb` in the data
 * directory; `duckdb:<path>` (relative to the data directory; `duckdb::memory:` for tests);
 * `postgres://…` / `postgresql://…`.
 */
export async function openAnalyticsStore (url: string | undefined, options: StoreOptions): Promise<AnalyticsStore> {
  if (url === undefined || url.startsWith('duckdb:')) {
    let path = url === undefined ? 'analytics.duckdb' : url.slice('duckdb:'.length).replace(/^\/\/(?=\/)/, '')
    if (path !== ':memory:' && !isAbsolute(path)) path = resolve(options.dataDir, path)
    const { openDuckDbStore } = await import('./duckdb-store.ts')
    return await openDuckDbStore(path, options.duckdb)
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { openPostgresStore } = await import('./postgres-store.ts')
    return await openPostgresStore(url, options)
  }
  throw new Error(`ANALYTICS_URL must be duckdb:<file> or postgres://…, not ${url}`)
}
