import { PagedList, type PageAnswer } from '../core/paging.ts'
import { encodePair } from '../core/signing.ts'
import type { RequestOptions, Transport } from '../core/transport.ts'
import type { Where } from '../core/where.ts'

export type QueryValue = string | number | boolean | Where | undefined
/** Query parameters of a call; `undefined` values are left out. */
export type Query = Record<string, QueryValue>

/** What every list takes besides its own filters: the page size (1–500, default 100). */
export interface PageSize {
  limit?: number
}

/** A path with its query string, every key and value percent-encoded. */
export function withQuery (path: string, query: Query = {}): string {
  const pairs = Object.entries(query).filter((entry): entry is [string, Exclude<QueryValue, undefined>] => entry[1] !== undefined)
  return pairs.length === 0 ? path : `${path}?${pairs.map(([key, value]) => encodePair(key, String(value))).join('&')}`
}

/** A path segment from an id: percent-encoded, so an external id holding `/` stays one segment. */
export function segment (id: string): string {
  if (id === '') throw new TypeError('An id must not be empty.')
  return encodeURIComponent(id)
}

/** The calls every resource makes, each signed by the transport. */
export class Endpoint {
  readonly transport: Transport

  constructor (transport: Transport) {
    this.transport = transport
  }

  list<T> (path: string, query: Query, options: RequestOptions = {}): PagedList<T> {
    return new PagedList<T>(withQuery(path, query), async (page) => await this.transport.request<PageAnswer<T>>('GET', page, options))
  }

  async get<T> (path: string, options: RequestOptions = {}, query: Query = {}): Promise<T> {
    return await this.transport.request<T>('GET', withQuery(path, query), options)
  }

  async post<T> (path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return await this.transport.request<T>('POST', path, { ...options, body })
  }

  async patch<T> (path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return await this.transport.request<T>('PATCH', path, { ...options, body })
  }

  async put<T> (path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return await this.transport.request<T>('PUT', path, { ...options, body })
  }

  async delete (path: string, options: RequestOptions = {}, query: Query = {}): Promise<void> {
    await this.transport.request('DELETE', withQuery(path, query), options)
  }
}
