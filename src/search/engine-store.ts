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
  exists: (index: string) => Promise<boolean>
  /** False when the index already existed (another process won the race). */
  create: (index: string, body: ReturnType<typeof indexBody>) => Promise<boolean>
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

  async function ensure (index: string): Promise<boolean> {
    // A bulk write to a missing index would auto-create it with a dynamic mapping and no version.
    if (await client.exists(index)) return false
    return await client.create(index, indexBody())
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
    async ensureIndex (accountId) { return await ensure(indexName(accountId)) },
    async upsert (accountId, docs) {
      if (docs.length === 0) return
      const index = indexName(accountId)
      await ensure(index)
      const stale = await staleCues(index, docs)
      if (stale.length > 0) await bulk(stale, true)
      for (const batch of chunks(docs, BULK_DOCUMENTS)) await bulk(withCues(index, batch), false)
    },
    async remove (accountId, refs) {
      // Deleting what is not there (or from a missing index) answers 404 per item: already done.
      const index = indexName(accountId)
      const stale = await staleCues(index, refs)
      if (stale.length > 0) await bulk(stale, true)
      for (const batch of chunks(refs, BULK_DOCUMENTS)) await bulk(bulkOperations(index, [], batch), true)
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
    async deleteIndex (accountId) { return await client.deleteIndex(indexName(accountId)) },
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
    async storedMappingVersion (accountId) {
      const index = indexName(accountId)
      const metas = await client.metas(index)
      return index in metas ? versionOf(metas[index]) : undefined
    },
    async close () { await client.close() }
  }
}

function versionOf (meta: Record<string, unknown> | undefined): number | null {
  const version = meta?.mapping_version
  return typeof version === 'number' ? version : null
}
