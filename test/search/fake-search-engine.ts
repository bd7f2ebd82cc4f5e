// A stand-in for an Elasticsearch 8 or OpenSearch node: the REST subset our adapters use, backed by
// in-memory maps. No real engine installs on this machine (neither Debian nor npm ships one), so this is the edge
// of the world we fake; its answers follow the real engines' shapes, including their refusals.
import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { matches, type Source } from './fake-search-queries.ts'

export type Flavor = 'elasticsearch' | 'opensearch'

export interface RecordedRequest {
  method: string
  path: string
  contentType?: string
  accept?: string
  authorization?: string
  body?: unknown
}

export interface RecordedExchange {
  request: RecordedRequest
  response: { status: number, body?: unknown }
}

interface Index {
  settings: Record<string, unknown>
  mappings: Record<string, any>
  docs: Map<string, Source>
  /** The aliases pointing at this index; deleting the index deletes them. */
  aliases: Set<string>
}

export interface FakeSearchEngine {
  url: string
  flavor: Flavor
  indices: Map<string, Index>
  exchanges: RecordedExchange[]
  close: () => Promise<void>
}

// Elasticsearch 8's answer to `DELETE /flex-account*` (action.destructive_requires_name=true).
export const WILDCARD_DELETE_REFUSED = {
  error: {
    root_cause: [{ type: 'illegal_argument_exception', reason: 'Wildcard expressions or all indices are not allowed' }],
    type: 'illegal_argument_exception',
    reason: 'Wildcard expressions or all indices are not allowed'
  },
  status: 400
}

class EngineError extends Error {
  constructor (readonly status: number, readonly type: string, reason: string, readonly extra: Record<string, unknown> = {}) {
    super(reason)
  }

  toBody (): Record<string, unknown> {
    const cause = { type: this.type, reason: this.message, ...this.extra }
    return { error: { root_cause: [cause], ...cause }, status: this.status }
  }
}

// Elasticsearch 8's and OpenSearch's answer to DELETE on an alias (and to remove_index naming one).
const aliasRefused = (name: string): EngineError => new EngineError(400, 'illegal_argument_exception',
  `The provided expression [${name}] matches an alias, specify the corresponding concrete indices instead.`)

const notFound = (index: string): EngineError => new EngineError(404, 'index_not_found_exception', `no such index [${index}]`,
  { 'resource.type': 'index_or_alias', 'resource.id': index, index_uuid: '_na_', index })

/** Starts a stand-in on a free loopback port. Elasticsearch flavour: major 8 semantics. */
export async function startFakeSearchEngine (flavor: Flavor): Promise<FakeSearchEngine> {
  const indices = new Map<string, Index>()
  const exchanges: RecordedExchange[] = []

  /** The indices an alias points at; [] when no alias bears the name. */
  function aliasTargets (alias: string): string[] {
    return [...indices].filter(([, index]) => index.aliases.has(alias)).map(([name]) => name)
  }

  // Names, aliases (standing for their indices; refused where `aliases` is false, as DELETE does) and
  // wildcards (matching concrete names only).
  function resolve (expression: string, ignoreUnavailable: boolean, aliases = true): string[] {
    const names = new Set<string>()
    for (const part of expression.split(',')) {
      if (part === '_all' || part.includes('*')) {
        const pattern = new RegExp(`^${part === '_all' ? '.*' : part.split('*').map(escapeRegExp).join('.*')}$`)
        for (const name of indices.keys()) if (pattern.test(name)) names.add(name)
      } else if (indices.has(part)) names.add(part)
      else if (aliasTargets(part).length > 0) {
        if (!aliases) throw aliasRefused(part)
        for (const name of aliasTargets(part)) names.add(name)
      } else if (!ignoreUnavailable) throw notFound(part)
    }
    return [...names].sort()
  }

  /** The one index a write through `name` lands in. */
  function writeIndex (name: string): string | undefined {
    if (indices.has(name)) return name
    const targets = aliasTargets(name)
    if (targets.length > 1) {
      throw new EngineError(400, 'illegal_argument_exception', `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`)
    }
    return targets[0]
  }

  function checkAliasName (alias: string, removed: Set<string> = new Set()): void {
    if (indices.has(alias) && !removed.has(alias)) {
      throw new EngineError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`)
    }
  }

  // POST /_aliases: every action or none. As the engines do, the indices `remove_index` names are
  // removed first, so an alias can take the name of an index removed in the same request.
  function updateAliases (actions: Array<Record<string, { index?: string, alias?: string }>>): void {
    const removed = new Set<string>()
    for (const action of actions) {
      const [type, { index }] = Object.entries(action)[0]
      if (type !== 'remove_index') continue
      if (index === undefined) throw new EngineError(400, 'action_request_validation_exception', 'Validation Failed: 1: index is missing;')
      if (!indices.has(index)) throw aliasTargets(index).length > 0 ? aliasRefused(index) : notFound(index)
      removed.add(index)
    }
    const after = new Map([...indices].filter(([name]) => !removed.has(name)).map(([name, index]) => [name, new Set(index.aliases)]))
    for (const action of actions) {
      const [type, { index, alias }] = Object.entries(action)[0]
      if (type === 'remove_index') continue
      if (type !== 'add' && type !== 'remove') throw new EngineError(400, 'x_content_parse_exception', `[aliases] unknown field [${type}]`)
      if (index === undefined || alias === undefined) throw new EngineError(400, 'action_request_validation_exception', 'Validation Failed: 1: index and alias are required;')
      const held = after.get(index)
      if (held === undefined) throw notFound(index)
      if (type === 'add') {
        checkAliasName(alias, removed)
        held.add(alias)
      } else if (!held.delete(alias)) throw new EngineError(404, 'aliases_not_found_exception', `aliases [${alias}] missing`, { 'resource.type': 'aliases', 'resource.id': alias })
    }
    for (const name of removed) indices.delete(name)
    for (const [name, aliases] of after) index(name).aliases = aliases
  }

  function index (name: string): Index {
    const found = indices.get(name)
    if (found === undefined) throw notFound(name)
    return found
  }

  function checkCompatibility (headers: http.IncomingHttpHeaders): void {
    // Elasticsearch 8 speaks REST compatibility for majors 8 and 7 only; a 9.x client's defaults
    // (compatible-with=9) are refused before anything else happens.
    for (const name of ['accept', 'content-type'] as const) {
      const version = /compatible-with=(\d+)/.exec(headers[name] ?? '')?.[1]
      if (version !== undefined && version !== '8' && version !== '7') {
        const label = name === 'accept' ? 'Accept' : 'Content-Type'
        throw new EngineError(400, 'media_type_header_exception', 'Invalid media-type value on headers [Accept, Content-Type]', {
          caused_by: { type: 'status_exception', reason: `${label} version must be either version 8 or 7, but found ${version}. ${label}=${headers[name]}` }
        })
      }
    }
  }

  function route (method: string, url: URL, body: unknown): { status: number, body?: unknown } {
    const segments = url.pathname.split('/').slice(1).map(decodeURIComponent)
    const query = url.searchParams
    const [first, second, third] = segments
    if (method === 'GET' && first === '') {
      return { status: 200, body: { name: 'fake', cluster_name: 'fake', version: { number: flavor === 'opensearch' ? '2.19.0' : '8.15.0' }, tagline: 'The OpenSearch Project: https://opensearch.org/' } }
    }
    if (first === '_bulk' && (method === 'POST' || method === 'PUT')) return { status: 200, body: bulk(body as any[]) }
    if (first === '_cat' && second === 'indices' && method === 'GET') {
      const names = third === undefined ? [...indices.keys()].sort() : resolve(third, false)
      const columns = (query.get('h') ?? 'health,status,index,docs.count').split(',')
      const row = (name: string): Record<string, unknown> => ({ health: 'green', status: 'open', index: name, 'docs.count': String(index(name).docs.size) })
      return { status: 200, body: names.map((name) => Object.fromEntries(columns.map((column) => [column, row(name)[column]]))) }
    }
    if (first === '_aliases' && second === undefined && method === 'POST') {
      updateAliases(((body ?? {}) as { actions?: [] }).actions ?? [])
      return { status: 200, body: { acknowledged: true, errors: false } }
    }
    if (second === '_alias' && third === undefined && method === 'GET') {
      const names = resolve(first, query.get('ignore_unavailable') === 'true')
      return { status: 200, body: Object.fromEntries(names.map((name) => [name, { aliases: Object.fromEntries([...index(name).aliases].sort().map((alias) => [alias, {}])) }])) }
    }
    if (second === undefined) {
      if (method === 'HEAD') return { status: indices.has(first) || aliasTargets(first).length > 0 ? 200 : 404 }
      if (method === 'PUT') {
        if (indices.has(first)) {
          throw new EngineError(400, 'resource_already_exists_exception', `index [${first}/${uuid(first)}] already exists`, { index_uuid: uuid(first), index: first })
        }
        if (aliasTargets(first).length > 0) throw new EngineError(400, 'invalid_index_name_exception', `Invalid index name [${first}], already exists as alias`, { index_uuid: '_na_', index: first })
        const { settings = {}, mappings = {}, aliases = {} } = (body ?? {}) as Partial<Index> & { aliases?: Record<string, unknown> }
        for (const alias of Object.keys(aliases)) checkAliasName(alias)
        indices.set(first, { settings, mappings, docs: new Map(), aliases: new Set(Object.keys(aliases)) })
        return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: first } }
      }
      if (method === 'DELETE') {
        if (flavor === 'elasticsearch' && (first.includes('*') || first === '_all')) return { status: 400, body: WILDCARD_DELETE_REFUSED }
        for (const name of resolve(first, query.get('ignore_unavailable') === 'true', false)) indices.delete(name)
        return { status: 200, body: { acknowledged: true } }
      }
    }
    if (second === '_mapping' && method === 'GET') {
      return { status: 200, body: Object.fromEntries(resolve(first, false).map((name) => [name, { mappings: index(name).mappings }])) }
    }
    if ((second === '_search' || second === '_count') && (method === 'GET' || method === 'POST')) {
      const request = (body ?? {}) as Record<string, any>
      const hits = resolve(first, false).flatMap((name) => [...index(name).docs].map(([id, source]) => ({ name, id, source })))
        .filter((hit) => matches(request.query ?? { match_all: {} }, hit.source, index(hit.name).mappings))
      if (second === '_count') return { status: 200, body: { count: hits.length, _shards: shards() } }
      return { status: 200, body: search(request, hits) }
    }
    if (second === '_doc' && third !== undefined && method === 'GET') {
      const name = writeIndex(first) ?? first
      const source = index(name).docs.get(third)
      const found = source === undefined ? { found: false } : { _version: 1, _seq_no: 0, _primary_term: 1, found: true, _source: source }
      return { status: source === undefined ? 404 : 200, body: { _index: name, _id: third, ...found } }
    }
    return { status: 400, body: { error: `no handler found for uri [${url.pathname}] and method [${method}]` } }
  }

  function bulk (lines: any[]): unknown {
    const items: unknown[] = []
    for (let i = 0; i < lines.length; i++) {
      const [action, target] = Object.entries(lines[i] as Record<string, { _index: string, _id: string }>)[0]
      const meta = { ...target, _index: writeIndex(target._index) ?? target._index }
      const head = { _index: meta._index, _id: meta._id }
      if (action === 'index') {
        // Like the real engines, indexing into a missing index creates it with a dynamic mapping.
        if (!indices.has(meta._index)) indices.set(meta._index, { settings: {}, mappings: {}, docs: new Map(), aliases: new Set() })
        const { docs, mappings } = index(meta._index)
        const source = lines[++i] as Source
        const invalid = invalidField(source, mappings)
        if (invalid !== undefined) {
          const reason = `[1:1] failed to parse field [${invalid.field}] of type [${invalid.type}] in document with id '${meta._id}'. Preview of field's value: '${String(source[invalid.field])}'`
          items.push({ index: { ...head, status: 400, error: { type: 'document_parsing_exception', reason } } })
          continue
        }
        const created = !docs.has(meta._id)
        docs.set(meta._id, source)
        items.push({ index: { ...head, _version: 1, result: created ? 'created' : 'updated', _shards: { total: 1, successful: 1, failed: 0 }, status: created ? 201 : 200 } })
      } else if (action === 'delete') {
        // Deletes never create an index: a missing one fails the item with 404.
        const docs = indices.get(meta._index)?.docs
        if (docs === undefined) items.push({ delete: { ...head, status: 404, error: notFound(meta._index).toBody().error } })
        else {
          const existed = docs.delete(meta._id)
          items.push({ delete: { ...head, _version: 1, result: existed ? 'deleted' : 'not_found', _shards: { total: 1, successful: 1, failed: 0 }, status: existed ? 200 : 404 } })
        }
      } else throw new EngineError(400, 'illegal_argument_exception', `Malformed action/metadata line [${i + 1}], expected one of [create, delete, index, update] but found [${action}]`)
    }
    return { took: 0, errors: items.some((item) => 'error' in (Object.values(item as object)[0] as object)), items }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown
      let answer: { status: number, body?: unknown }
      try {
        body = text === '' ? undefined : req.url?.includes('_bulk') === true ? text.trim().split('\n').map((line) => JSON.parse(line) as unknown) : JSON.parse(text)
        if (flavor === 'elasticsearch') checkCompatibility(req.headers)
        answer = route(req.method ?? 'GET', new URL(req.url ?? '/', 'http://fake'), body)
      } catch (error) {
        // Anything else is a gap in the stand-in: a 500 names it instead of crashing the server.
        const failure = error instanceof EngineError ? error : new EngineError(500, 'stand_in_error', String(error))
        answer = { status: failure.status, body: failure.toBody() }
      }
      const request: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/' }
      if (req.headers['content-type'] !== undefined) request.contentType = req.headers['content-type']
      if (req.headers.accept !== undefined) request.accept = req.headers.accept
      if (req.headers.authorization !== undefined) request.authorization = req.headers.authorization
      if (body !== undefined) request.body = body
      exchanges.push({ request, response: answer })
      const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json; charset=UTF-8' }
      // The Elasticsearch client (v8+) refuses any answer without this header; OpenSearch never sends it.
      if (flavor === 'elasticsearch') headers['x-elastic-product'] = 'Elasticsearch'
      res.writeHead(answer.status, headers)
      res.end(answer.body === undefined || req.method === 'HEAD' ? undefined : JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    flavor,
    indices,
    exchanges,
    close: async () => { await new Promise<void>((resolve) => { server.close(() => { resolve() }); server.closeAllConnections() }) }
  }
}

function search (request: Record<string, any>, hits: Array<{ name: string, id: string, source: Source }>): unknown {
  const sortField = request.sort === undefined ? undefined : Object.keys(request.sort[0] as object)[0]
  let sorted = hits.map((hit) => ({ ...hit, key: sortField === undefined ? undefined : String(hit.source[sortField]) }))
  if (sortField !== undefined) sorted.sort((a, b) => (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0))
  const after = request.search_after?.[0] as string | undefined
  if (after !== undefined) sorted = sorted.filter((hit) => hit.key! > after)
  const page = sorted.slice(request.from ?? 0, (request.from ?? 0) + (request.size ?? 10))
  return {
    took: 0,
    timed_out: false,
    _shards: shards(),
    hits: {
      ...(request.track_total_hits === false ? {} : { total: { value: hits.length, relation: 'eq' } }),
      max_score: null,
      hits: page.map((hit) => ({
        _index: hit.name,
        _id: hit.id,
        _score: sortField === undefined ? 1 : null,
        ...(request._source === false ? {} : { _source: hit.source }),
        ...(sortField === undefined ? {} : { sort: [hit.key] })
      }))
    }
  }
}

// The mapped types the stand-in checks, as the real engines refuse a value their mapping cannot hold.
function invalidField (source: Source, mappings: Record<string, any>): { field: string, type: string } | undefined {
  for (const [field, { type }] of Object.entries((mappings.properties ?? {}) as Record<string, { type: string }>)) {
    const value = source[field]
    if (value === undefined || value === null) continue
    if (type === 'date' && Number.isNaN(Date.parse(String(value)))) return { field, type }
    if (type === 'long' && !Number.isInteger(Number(value))) return { field, type }
  }
  return undefined
}

function shards (): Record<string, number> {
  return { total: 1, successful: 1, skipped: 0, failed: 0 }
}

function uuid (name: string): string {
  return createHash('sha256').update(name).digest('base64url').slice(0, 22)
}

function escapeRegExp (text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
