// Elasticsearch adapter: the EngineClient calls mapped onto the official client (9.x API).
import { Client, errors, type estypes } from '@elastic/elasticsearch'
import { createEngineStore, type EngineClient, type EngineStoreOptions } from './engine-store.ts'
import type { SearchStore } from './search-store.ts'

// The 9.x client asks for `compatible-with=9`, which Elasticsearch 8 refuses (400
// media_type_header_exception). Version 8 is understood by 8.x as its own and by 9.x as the previous
// major, so asking for it lets one client serve both.
const JSON_8 = 'application/vnd.elasticsearch+json; compatible-with=8'
const NDJSON_8 = 'application/vnd.elasticsearch+x-ndjson; compatible-with=8'

export function createElasticsearchStore (options: EngineStoreOptions): SearchStore {
  const client = new Client({
    node: options.node,
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    headers: { accept: JSON_8, 'content-type': JSON_8 }
  })
  return createEngineStore(elasticsearchEngine(client), options.prefix)
}

function isStatus (error: unknown, status: number, type?: string): boolean {
  if (!(error instanceof errors.ResponseError) || error.statusCode !== status) return false
  return type === undefined || (error.body as { error?: { type?: string } } | undefined)?.error?.type === type
}

async function orNull<T> (call: Promise<T>): Promise<T | null> {
  try {
    return await call
  } catch (error) {
    if (isStatus(error, 404)) return null
    throw error
  }
}

export function elasticsearchEngine (client: Client): EngineClient {
  return {
    kind: 'elasticsearch',
    async create (index, body, alias) {
      try {
        await client.indices.create({
          index,
          settings: body.settings as estypes.IndicesIndexSettings,
          mappings: body.mappings as estypes.MappingTypeMapping,
          ...(alias === undefined ? {} : { aliases: { [alias]: {} } })
        })
        return true
      } catch (error) {
        if (isStatus(error, 400, 'resource_already_exists_exception')) return false
        throw error
      }
    },
    async aliases (expression) {
      const found = (await orNull(client.indices.getAlias({ index: expression, ignore_unavailable: true }))) ?? {}
      return Object.fromEntries(Object.entries(found).map(([name, record]) => [name, Object.keys(record.aliases ?? {})]))
    },
    async updateAliases (actions) {
      await client.indices.updateAliases({ actions: actions as estypes.IndicesUpdateAliasesAction[] })
    },
    async metas (pattern) {
      const found = (await orNull(client.indices.getMapping({ index: pattern }))) ?? {}
      return Object.fromEntries(Object.entries(found).map(([name, record]) => [name, record.mappings._meta]))
    },
    async resolve (pattern) {
      const rows = await client.cat.indices({ index: pattern, format: 'json', h: 'index' })
      return rows.map((row) => String(row.index))
    },
    async deleteIndex (index) {
      return (await orNull(client.indices.delete({ index }))) !== null
    },
    async deleteIndices (names) {
      await client.indices.delete({ index: names, ignore_unavailable: true })
    },
    async bulk (operations) {
      const response = await client.bulk({ operations }, { headers: { 'content-type': NDJSON_8 } })
      return response.items.map((item) => {
        const result = Object.values(item)[0]
        return { status: result?.status ?? 500, error: result?.error }
      })
    },
    async search (index, body) {
      const response = await orNull(client.search({ index, ...body }))
      return response === null ? null : response.hits.hits.map((hit) => ({ sort: hit.sort, _source: hit._source as Record<string, unknown> | undefined }))
    },
    async count (index, query) {
      const response = await orNull(client.count({ index, query: query as estypes.QueryDslQueryContainer }))
      return response === null ? null : response.count
    },
    async source (index, id) {
      const response = await orNull(client.get<Record<string, unknown>>({ index, id }))
      return response?.found === true ? response._source ?? null : null
    },
    async close () { await client.close() }
  }
}
