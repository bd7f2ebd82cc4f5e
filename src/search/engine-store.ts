// SearchStore over an OpenSearch or Elasticsearch cluster. The logic lives here once; each adapter
// provides an EngineClient, a handful of calls mapped onto its official client.
import {
  bulkOperations, cueIds, cueOperations, deleteBatches, documentId, fromSource, indexBody, searchBody, SEARCH_PAGE_SIZE,
  transcriptSearchBody
} from './engine-requests.ts'
import {
  checkPrefix, indexNameFor, MAPPING_VERSION, queryWords,
  type IndexInfo, type SearchDocument, type SearchRef, type SearchStore, type TranscriptHit
} from './search-store.ts'

export interface EngineStoreOptions {
  /** http(s) URL of the cluster, without credentials. */
  node: string
  auth?: { username: string, password: string }
  prefix: string
}

export interface BulkItemResult {
  status: number
  error?: { type?: string, reason?: string | null }
}

export interface EngineClient {
  readonly kind: 'opensearch' | 'elasticsearch'
  /** False when the index already existed (another process won the race); `alias` is created with it. */
  create: (index: string, body: ReturnType<typeof indexBody>, alias?: string) => Promise<boolean>
  /** `GET /{expression}/_alias?ignore_unavailable=true`: each concrete index matched, with its aliases. */
  aliases: (expression: string) => Promise<Record<string, string[]>>
  /** `POST /_aliases`: the actions are applied in one step, all or none. */
  updateAliases: (actions: object[]) => Promise<void>
  /** `GET /{pattern}/_mapping`: index name → its `_meta`; {} when nothing matches. */
  metas: (pattern: string) => Promise<Record<string, Record<string, unknown> | undefined>>
  /** `GET /_cat/indices/{pattern}`: the concrete names a wildcard stands for. */
  resolve: (pattern: string) => Promise<string[]>
  /** `DELETE /{index}`; false when it did not exist. */
  deleteIndex: (index: string) => Promise<boolean>
  /** `DELETE /{a,b,…}?ignore_unavailable=true`: by name, never by wildcard. */
  deleteIndices: (names: string[]) => Promise<void>
  bulk: (operations: object[]) => Promise<BulkItemResult[]>
  /** The hits' sort values; null when the index is missing. */
  search: (index: string, body: Record<string, unknown>) => Promise<Array<{ sort?: unknown[], _source?: Record<string, unknown> }> | null>
  count: (index: string, query: object) => Promise<number | null>
  source: (index: string, id: string) => Promise<Record<string, unknown> | null>
  close: () => Promise<void>
}

// A full reindex may hand over thousands of documents at once; bounded bulk requests stay well
// under the engines' http.max_content_length (100 MB by default).
const BULK_DOCUMENTS = 1000

function chunks<T> (items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))
}

export function createEngineStore (client: EngineClient, prefixOption: string): SearchStore {
  const prefix = checkPrefix(prefixOption)
  const indexName = (accountId: string): string => indexNameFor(prefix, accountId)

  // An account's concrete indices: the live one (behind the alias, or an index from before aliases
  // that bears the alias's name itself) and the builds beside it (`<alias>-v<N>` without the alias).
  async function accountIndices (accountId: string): Promise<AccountIndices> {
    const alias = indexName(accountId)
    const found = await client.aliases(`${alias},${alias}-v*`)
    const versioned = new RegExp(`^${alias.replaceAll('.', '\\.')}-v(\\d+)$`)
    let live: string | undefined
    const builds: Array<{ name: string, version: number }> = []
    let top = 0
    for (const [name, aliases] of Object.entries(found)) {
      const version = Number(versioned.exec(name)?.[1] ?? (name === alias ? 0 : NaN))
      if (Number.isNaN(version)) continue
      top = Math.max(top, version)
      if (name === alias || aliases.includes(alias)) live = name
      else builds.push({ name, version })
    }
    builds.sort((a, b) => a.version - b.version)
    return { alias, live, builds: builds.map((build) => build.name), next: `${alias}-v${top + 1}` }
  }

  // A bulk write to a missing index would auto-create it with a dynamic mapping and no version, so
  // the live index is created first: the next version, with the alias, in one request.
  async function ensure (accountId: string): Promise<{ created: boolean, indices: AccountIndices }> {
    const indices = await accountIndices(accountId)
    if (indices.live !== undefined) return { created: false, indices }
    const created = await client.create(indices.next, indexBody(), indices.alias)
    // Lost a race to another writer: read what it made.
    return { created, indices: created ? { ...indices, live: indices.next } : await accountIndices(accountId) }
  }

  /** The indices a write goes to: the live one and any build. */
  function targets (indices: AccountIndices): string[] {
    return [...(indices.live === undefined ? [] : [indices.live]), ...indices.builds]
  }

  async function bulk (operations: object[], tolerateNotFound: boolean): Promise<void> {
    const failed = (await client.bulk(operations))
      .filter((item) => item.status >= 300 && !(tolerateNotFound && item.status === 404))
    if (failed.length > 0) {
      const first = failed[0].error
      throw new Error(`search bulk request: ${failed.length} item(s) failed, first: ${first?.type ?? failed[0].status} ${first?.reason ?? ''}`.trim())
    }
  }

  // The delete operations of the cues an asset's transcript document wrote last, read from that document.
  async function staleCues (index: string, refs: SearchRef[]): Promise<object[]> {
    const operations: object[] = []
    for (const ref of refs) {
      if (ref.type !== 'transcript') continue
      const source = await client.source(index, documentId(ref))
      if (source === null) continue
      for (const id of cueIds(fromSource(ref, source))) operations.push({ delete: { _index: index, _id: id } })
    }
    return operations
  }

  function withCues (index: string, docs: SearchDocument[]): object[] {
    return docs.flatMap((doc) => doc.type === 'transcript' ? [...cueOperations(index, doc), ...bulkOperations(index, [doc])] : bulkOperations(index, [doc]))
  }

  return {
    kind: client.kind,
    prefix,
    mappingVersion: MAPPING_VERSION,
    indexName,
    async ensureIndex (accountId) { return (await ensure(accountId)).created },
    async upsert (accountId, docs) {
      if (docs.length === 0) return
      for (const index of targets((await ensure(accountId)).indices)) {
        const stale = await staleCues(index, docs)
        if (stale.length > 0) await bulk(stale, true)
        for (const batch of chunks(docs, BULK_DOCUMENTS)) await bulk(withCues(index, batch), false)
      }
    },
    async remove (accountId, refs) {
      // Deleting what is not there (or from a missing index) answers 404 per item: already done.
      for (const index of targets(await accountIndices(accountId))) {
        const stale = await staleCues(index, refs)
        if (stale.length > 0) await bulk(stale, true)
        for (const batch of chunks(refs, BULK_DOCUMENTS)) await bulk(bulkOperations(index, [], batch), true)
      }
    },
    async search (accountId, query) {
      if (query.clauses.some((clause) => queryWords(clause.text).length === 0)) return []
      const index = indexName(accountId)
      const ids: string[] = []
      let after: string | undefined
      for (;;) {
        const hits = await client.search(index, searchBody(query, after))
        if (hits === null) return []
        for (const hit of hits) ids.push(String(hit.sort?.[0]))
        if (hits.length < SEARCH_PAGE_SIZE) return ids
        after = ids[ids.length - 1]
      }
    },
    async searchTranscripts (accountId, query) {
      if (queryWords(query.text).length === 0 || query.assetIds?.length === 0) return []
      const hits = await client.search(indexName(accountId), transcriptSearchBody(query))
      return (hits ?? []).map((hit): TranscriptHit => {
        const source = hit._source ?? {}
        return {
          asset_id: String(source.asset_id),
          language: String(source.language),
          start_ms: Number(source.start_ms),
          end_ms: Number(source.end_ms),
          text: String(source.transcript),
          key: String(hit.sort?.[0])
        }
      })
    },
    async count (accountId, type) {
      const query = type === undefined ? { match_all: {} } : { term: { doc_type: type } }
      return (await client.count(indexName(accountId), query)) ?? 0
    },
    async get (accountId, type, id) {
      const source = await client.source(indexName(accountId), documentId({ type, id }))
      return source === null ? null : fromSource({ type, id }, source)
    },
    async deleteIndex (accountId) {
      // By concrete name: engines refuse DELETE on an alias.
      const names = targets(await accountIndices(accountId))
      if (names.length > 0) await client.deleteIndices(names)
      return names.length > 0
    },
    async deleteAllIndices () {
      // Elasticsearch 8+ refuses `DELETE /flex-account*` (action.destructive_requires_name), so the
      // wildcard is resolved to names first. OpenSearch accepts either; one code path serves both.
      const names = (await client.resolve(`${prefix}*`)).sort()
      for (const batch of deleteBatches(names)) await client.deleteIndices(batch)
      return names
    },
    async listIndices () {
      const metas = await client.metas(`${prefix}*`)
      return Object.keys(metas).sort().map((name): IndexInfo => ({ name, mappingVersion: versionOf(metas[name]) }))
    },
    async indexedAccounts () {
      const found = await client.aliases(`${prefix}-*`)
      const accounts = new Set<string>()
      const versioned = /-v\d+$/
      for (const [name, aliases] of Object.entries(found)) {
        const own = aliases.filter((alias) => alias.startsWith(`${prefix}-`))
        if (own.length > 0) for (const alias of own) accounts.add(alias.slice(prefix.length + 1))
        else accounts.add(name.slice(prefix.length + 1).replace(versioned, ''))
      }
      return [...accounts].sort()
    },
    async beginRebuild (accountId) {
      const indices = await accountIndices(accountId)
      if (indices.builds.length > 0) await client.deleteIndices(indices.builds)
      await client.create(indices.next, indexBody())
      return indices.next
    },
    async finishRebuild (accountId) {
      const { alias, live, builds } = await accountIndices(accountId)
      const built = builds.at(-1)
      if (built === undefined) return false
      // One request: the alias moves to the new index and the old ones go, so every search reads a
      // complete index. An index from before aliases bears the alias's name: `remove_index` is what
      // frees the name for the alias in the same step.
      const retired = [...(live === undefined ? [] : [live]), ...builds.slice(0, -1)]
      await client.updateAliases([
        { add: { index: built, alias } },
        ...retired.map((index) => ({ remove_index: { index } }))
      ])
      return true
    },
    async cancelRebuild (accountId) {
      const { builds } = await accountIndices(accountId)
      if (builds.length > 0) await client.deleteIndices(builds)
      return builds.length > 0
    },
    async storedMappingVersion (accountId) {
      // The alias (or an index from before aliases) names exactly one concrete index.
      const metas = Object.values(await client.metas(indexName(accountId)))
      return metas.length === 0 ? undefined : versionOf(metas[0])
    },
    async close () { await client.close() }
  }
}

interface AccountIndices {
  alias: string
  live: string | undefined
  /** Oldest first. */
  builds: string[]
  /** The name of the account's next concrete index. */
  next: string
}

function versionOf (meta: Record<string, unknown> | undefined): number | null {
  const version = meta?.mapping_version
  return typeof version === 'number' ? version : null
}
