// Picks the search store SEARCH_URL names.
import { createFts5Store } from './fts5-store.ts'
import { DEFAULT_INDEX_PREFIX, type IndexInfo, type SearchStore } from './search-store.ts'

export interface SearchStoreOptions {
  /** SEARCH_URL; unset or empty selects the embedded FTS5 store. */
  url?: string
  /** Index name prefix; `flex-account` by default. */
  prefix?: string
  /** The FTS5 database file (`:memory:` in tests); required when `url` is unset. */
  sqlitePath?: string
  /** The FTS5 file's page cache in KiB (SQLITE_CACHE_KB). */
  sqliteCacheKb?: number
}

export interface EngineLocation {
  engine: 'opensearch' | 'elasticsearch'
  /** The http(s) URL handed to the client, credentials removed. */
  node: string
  auth?: { username: string, password: string }
}

/**
 * SEARCH_URL forms:
 *   (unset)                                   embedded SQLite FTS5 in `sqlitePath`
 *   opensearch://host:9200, opensearchs://…   OpenSearch over http, https
 *   elasticsearch://host:9200, elasticsearchs://…  Elasticsearch over http, https
 *   http(s)://host:9200                       Elasticsearch; add `?engine=opensearch` for OpenSearch
 * `user:password@` in any of them is sent as basic auth; a path (a proxy prefix) is kept.
 */
export function parseSearchUrl (url: string): EngineLocation {
  const parsed = new URL(url)
  const scheme = parsed.protocol.slice(0, -1)
  const hint = parsed.searchParams.get('engine')
  for (const key of parsed.searchParams.keys()) {
    if (key !== 'engine') throw new Error(`SEARCH_URL: unknown parameter ${key}`)
  }
  let engine: EngineLocation['engine']
  let secure: boolean
  if (scheme === 'http' || scheme === 'https') {
    if (hint !== null && hint !== 'opensearch' && hint !== 'elasticsearch') {
      throw new Error(`SEARCH_URL: engine must be opensearch or elasticsearch, not ${hint}`)
    }
    engine = hint ?? 'elasticsearch'
    secure = scheme === 'https'
  } else {
    const match = /^(opensearch|elasticsearch)(s?)$/.exec(scheme)
    if (match === null) throw new Error(`SEARCH_URL: unsupported scheme ${scheme}:`)
    if (hint !== null && hint !== match[1]) throw new Error(`SEARCH_URL: engine=${hint} contradicts ${scheme}:`)
    engine = match[1] as EngineLocation['engine']
    secure = match[2] === 's'
  }
  const path = parsed.pathname === '/' ? '' : parsed.pathname
  const node = `${secure ? 'https' : 'http'}://${parsed.host}${path}`
  if (parsed.username === '') return { engine, node }
  return { engine, node, auth: { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) } }
}

/**
 * The engine clients are imported only when SEARCH_URL names their engine: each holds megabytes of code
 * and heap that the embedded deployment never uses (docs/benchmarks.md, "Soak").
 */
export async function createSearchStore (options: SearchStoreOptions): Promise<SearchStore> {
  const prefix = options.prefix ?? DEFAULT_INDEX_PREFIX
  if (options.url === undefined || options.url === '') {
    if (options.sqlitePath === undefined) throw new Error('the embedded search store needs sqlitePath')
    return createFts5Store({ path: options.sqlitePath, prefix, cacheKb: options.sqliteCacheKb })
  }
  const { engine, ...location } = parseSearchUrl(options.url)
  if (engine === 'opensearch') return (await import('./opensearch-store.ts')).createOpenSearchStore({ ...location, prefix })
  return (await import('./elasticsearch-store.ts')).createElasticsearchStore({ ...location, prefix })
}

/** Indices written with another mapping version: non-empty means "reindex required" (docs/search-and-indexing.md). */
export async function outdatedIndices (store: SearchStore): Promise<IndexInfo[]> {
  return (await store.listIndices()).filter((index) => index.mappingVersion !== store.mappingVersion)
}
