// OpenSearch adapter: the EngineClient calls mapped onto the official client (3.x API, which wraps
// every answer as { body, statusCode } and takes request bodies as `body`).
import { Client, errors } from '@opensearch-project/opensearch'
import { createEngineStore, type EngineClient, type EngineStoreOptions } from './engine-store.ts'
import type { SearchStore } from './search-store.ts'

export function createOpenSearchStore (options: EngineStoreOptions): SearchStore {
  const client = new Client({ node: options.node, ...(options.auth === undefined ? {} : { auth: options.auth }) })
  return createEngineStore(openSearchEngine(client), options.prefix)
}

function isStatus (error: unknown, status: number, type?: string): boolean {
  if (!(error instanceof errors.ResponseError) || error.statusCode !== status) return false
  return type === undefined || (error.body as { error?: { type?: string } } | undefined)?.error?.type === type
}

async function orNull<T> (call: Promise<{ body: T }>): Promise<T | null> {
  try {
    return (await call).body
  } catch (error) {
    if (isStatus(error, 404)) return null
    throw error
  }
}

export function openSearchEngine (client: Client): EngineClient {
  return {
    kind: 'opensearch',
    async create (index, body, alias) {
      try {
        await client.indices.create({ index, body: alias === undefined ? body : { ...body, aliases: { [alias]: {} } } })
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
      await client.indices.updateAliases({ body: { actions: actions as never[] } })
    },
    async metas (pattern) {
      const found = (await orNull(client.indices.getMapping({ index: pattern }))) ?? {}
      return Object.fromEntries(Object.entries(found).map(([name, record]) => [name, record.mappings?._meta]))
    },
    async resolve (pattern) {
      const rows = (await client.cat.indices({ index: pattern, format: 'json', h: ['index'] })).body
      return (rows as Array<{ index?: string }>).map((row) => String(row.index))
    },
    async deleteIndex (index) {
      return (await orNull(client.indices.delete({ index }))) !== null
    },
    async deleteIndices (names) {
      await client.indices.delete({ index: names, ignore_unavailable: true })
    },
    async bulk (operations) {
      const response = (await client.bulk({ body: operations })).body
      return response.items.map((item) => {
        const result = Object.values(item)[0]
        return { status: result?.status ?? 500, error: result?.error ?? undefined }
      })
    },
    async search (index, body) {
      const response = await orNull(client.search({ index, body }))
      return response === null ? null : response.hits.hits.map((hit) => ({ sort: hit.sort, _source: hit._source as Record<string, unknown> | undefined }))
    },
    async count (index, query) {
      const response = await orNull(client.count({ index, body: { query } }))
      return response === null ? null : response.count
    },
    async source (index, id) {
      const response = await orNull(client.get({ index, id }))
      return response?.found === true ? (response._source as Record<string, unknown> | undefined) ?? null : null
    },
    async close () { await client.close() }
  }
}
