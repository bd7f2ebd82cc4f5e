import type { FastifyRequest } from 'fastify'
import { ApiError } from '../errors/api-error.ts'
import { queryBinding, type KeyValue, type PageTokens } from './page-tokens.ts'

export const DEFAULT_LIMIT = 100
export const MAX_LIMIT = 500

/** Parameters that never go into `next_page` nor into a token's query binding. */
const NOT_FILTERS = new Set(['api_key', 'expires', 'signature', 'limit', 'page_token', 'paging_token', 'callback'])

/** What a repository needs to read one page, and what `pageOf` needs to write `next_page`. */
export interface PageParams {
  limit: number
  /** Keyset position after which this page starts; undefined for the first page. */
  after: KeyValue[] | undefined
  /** Path as received (still percent-encoded) and the filter parameters, for `next_page`. */
  path: string
  filters: Array<[string, string]>
  binding: string
  tokens: PageTokens
}

export interface Page<T> {
  items: T[]
  next_page?: string
}

/** Reads `limit` and `page_token` (or its synonym `paging_token`) of a list request. */
export function pageParams (request: FastifyRequest, tokens: PageTokens, maxLimit = MAX_LIMIT): PageParams {
  const pairs = request.signed.pairs
  const path = request.url.split('?', 1)[0] as string
  const filters = pairs.filter(([key]) => !NOT_FILTERS.has(key))
  const binding = queryBinding(path, filters)
  const limitRaw = pairs.find(([key]) => key === 'limit')?.[1]
  const limit = limitRaw === undefined ? Math.min(DEFAULT_LIMIT, maxLimit) : Number(limitRaw)
  if (!/^\d+$/.test(limitRaw ?? '1') || !Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    throw new ApiError('limit_invalid', `Parameter limit must be an integer from 1 to ${maxLimit}.`)
  }
  const token = pairs.find(([key]) => key === 'page_token' || key === 'paging_token')?.[1]
  const after = token === undefined || token === '' ? undefined : tokens.decode(tokenOnly(token), binding)
  return { limit, after, path, filters, binding, tokens }
}

/** Some clients pass the whole `next_page` URL as the token: keep only the token itself. */
function tokenOnly (value: string): string {
  const at = value.lastIndexOf('page_token=')
  return at === -1 ? value : decodeURIComponent(value.slice(at + 'page_token='.length))
}

/**
 * Cuts the `limit + 1` rows a repository fetched into a page: `next_page` is present exactly when the
 * extra row exists. Its query is the filters, then `limit`, then `page_token` last, all URL-encoded.
 */
export function toPage<Row, Item> (rows: Row[], params: PageParams, positionOf: (row: Row) => KeyValue[], toApi: (row: Row) => Item): Page<Item> {
  const hasMore = rows.length > params.limit
  const pageRows = hasMore ? rows.slice(0, params.limit) : rows
  const page: Page<Item> = { items: pageRows.map(toApi) }
  if (hasMore) {
    const last = pageRows[pageRows.length - 1] as Row
    const token = params.tokens.encode(positionOf(last), params.binding)
    const query = [...params.filters, ['limit', String(params.limit)], ['page_token', token]]
      .map(([k, v]) => `${encodeURIComponent(k as string)}=${encodeURIComponent(v as string)}`).join('&')
    page.next_page = `${params.path}?${query}`
  }
  return page
}
