import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify'
import { Type, type TSchema } from 'typebox'
import type { Caller } from '../../auth/caller.ts'
import type { Area } from '../../auth/roles.ts'
import { callerOf } from '../../http/request-types.ts'
import { Empty, pageOf, PageQuery, SignedQuery } from '../../http/schemas.ts'
import { pageParams, type Page, type PageParams, type PageTokens } from '../../paging/index.ts'
import { MetadataBody, MetadataPatchBody, MetadataSchema, type Metadata, type MetadataPatch } from './metadata.ts'
import { crudOperationDocs, metadataOperationDocs, type CrudDocs, type Noun } from './operation-docs.ts'
import type { WriteMode } from './write-mode.ts'

type Deleted = Record<string, never>

/** The app as route plugins get it: request types come from each route's TypeBox schema. */
type RouteApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>

/** What the standard routes of a resource call: one service function per route. */
export interface CrudService<Item, CreateInput, UpdateInput> {
  /** `query`: the list's own parameters (see `CrudSchemas.listQuery`). */
  list: (caller: Caller, page: PageParams, query: any) => Promise<Page<Item>>
  /** `include`: GET's own parameter of that name, where the item's query string has one. */
  get: (caller: Caller, id: string, include?: string) => Promise<Item>
  create: (caller: Caller, input: CreateInput) => Promise<Item | unknown>
  /** PATCH (`merge`) and PUT (`replace`); see `WriteMode`. */
  update: (caller: Caller, id: string, input: UpdateInput | CreateInput, mode: WriteMode) => Promise<Item>
  /** `query`: the delete's own parameters (see `CrudSchemas.removeQuery`). */
  remove: (caller: Caller, id: string, query: any) => Promise<Deleted>
}

/** What the `/metadata` routes of a resource call. */
export interface MetadataService {
  getMetadata: (caller: Caller, id: string) => Promise<Metadata>
  writeMetadata: (caller: Caller, id: string, body: MetadataPatch, mode: WriteMode) => Promise<Metadata>
  clearMetadata: (caller: Caller, id: string) => Promise<Deleted>
}

export interface ResourceRoutes {
  /** The collection, e.g. `/v2/players`. */
  path: string
  /** The id's path parameter, e.g. `player_id`. */
  id: string
  /** The role area the routes need (`read` for GET, `write` otherwise). */
  area: Area
  /** The OpenAPI tag. */
  tag: string
  /** How the API reference names one item and several (`label`, `labels`). */
  noun: Noun
  /** The id parameter in the API reference; default: the item's 32-character hex id. */
  idDoc?: { description: string, example: string }
  /** The error responses the routes may give (for the OpenAPI document). */
  errors: Record<number, TSchema>
  pageTokens: PageTokens
  /** POST answers a secret shown once: it refuses an `Idempotency-Key`, so no replay store keeps it. */
  createShowsSecret?: boolean
}

export interface CrudSchemas {
  item: TSchema
  /** What POST answers; default `item`. */
  created?: TSchema
  create: TSchema
  update: TSchema
  /** The list's query string; default: paging only. */
  listQuery?: TSchema
  /** PUT's body; default `create`. `false`: the resource has no PUT. */
  replace?: TSchema | false
  /** The delete's query string; default: the signing parameters only. */
  removeQuery?: TSchema
  /** GET one item's query string; default: the signing parameters only. */
  itemQuery?: TSchema
  /** What the API reference adds to the standard descriptions of the operations. */
  docs?: CrudDocs
}

/**
 * The standard routes of a resource: `GET` (a page) and `POST` on the collection, `GET`, `PATCH`,
 * `PUT` and `DELETE` on one item. Each is one call of the service with the caller first.
 */
export function registerCrudRoutes<Item, C, U> (app: RouteApp, routes: ResourceRoutes, schemas: CrudSchemas, service: CrudService<Item, C, U>): void {
  const { read, write, one, errors, tags } = parts(routes)
  const replace = schemas.replace === undefined ? schemas.create : schemas.replace
  const docs = crudOperationDocs(routes.noun, schemas.docs)
  app.get(routes.path, {
    config: read,
    schema: { ...docs.list, tags, querystring: schemas.listQuery ?? PageQuery, response: { 200: pageOf(schemas.item), ...errors } }
  }, async (req) => await service.list(callerOf(req), pageParams(req, routes.pageTokens), req.query))
  app.post(routes.path, {
    config: routes.createShowsSecret === true ? { ...write, idempotencyKey: false } : write,
    schema: { ...docs.create, tags, querystring: SignedOnly, body: schemas.create, response: { 200: schemas.created ?? schemas.item, ...errors } }
  }, async (req) => await service.create(callerOf(req), req.body as C))
  app.get(one.path, { config: read, schema: { ...docs.get, ...one.schema, querystring: schemas.itemQuery ?? SignedOnly, response: { 200: schemas.item, ...errors } } },
    async (req) => await service.get(callerOf(req), one.idOf(req), (req.query as { include?: string }).include))
  app.patch(one.path, { config: write, schema: { ...docs.update, ...one.schema, body: schemas.update, response: { 200: schemas.item, ...errors } } },
    async (req) => await service.update(callerOf(req), one.idOf(req), req.body as U, 'merge'))
  if (replace !== false) {
    app.put(one.path, { config: write, schema: { ...docs.replace, ...one.schema, body: replace, response: { 200: schemas.item, ...errors } } },
      async (req) => await service.update(callerOf(req), one.idOf(req), req.body as C, 'replace'))
  }
  app.delete(one.path, { config: write, schema: { ...docs.delete, ...one.schema, querystring: schemas.removeQuery ?? SignedOnly, response: { 200: Empty, ...errors } } },
    async (req) => await service.remove(callerOf(req), one.idOf(req), req.query))
}

/** `GET`, `PUT` (replace), `PATCH` (merge) and `DELETE` on `<item>/metadata`. */
export function registerMetadataRoutes (app: RouteApp, routes: ResourceRoutes, service: MetadataService): void {
  const { read, write, one, errors } = parts(routes)
  const path = `${one.path}/metadata`
  const docs = metadataOperationDocs(routes.noun)
  app.get(path, { config: read, schema: { ...docs.getMetadata, ...one.schema, response: { 200: MetadataSchema, ...errors } } },
    async (req) => await service.getMetadata(callerOf(req), one.idOf(req)))
  app.put(path, { config: write, schema: { ...docs.replaceMetadata, ...one.schema, body: MetadataBody, response: { 200: MetadataSchema, ...errors } } },
    async (req) => await service.writeMetadata(callerOf(req), one.idOf(req), req.body, 'replace'))
  app.patch(path, { config: write, schema: { ...docs.updateMetadata, ...one.schema, body: MetadataPatchBody, response: { 200: MetadataSchema, ...errors } } },
    async (req) => await service.writeMetadata(callerOf(req), one.idOf(req), req.body, 'merge'))
  app.delete(path, { config: write, schema: { ...docs.deleteMetadata, ...one.schema, response: { 200: Empty, ...errors } } },
    async (req) => await service.clearMetadata(callerOf(req), one.idOf(req)))
}

/** A query string of the signing parameters alone. */
export const SignedOnly = Type.Object(SignedQuery)

/** The pieces every route of a resource shares: permissions, tags, the item path and its parameter. */
export function parts (routes: ResourceRoutes) {
  const tags = [routes.tag]
  return {
    tags,
    errors: routes.errors,
    read: { permission: [routes.area, 'read'] as const },
    write: { permission: [routes.area, 'write'] as const },
    one: {
      path: `${routes.path}/:${routes.id}`,
      schema: { tags, params: Type.Object({ [routes.id]: idParameter(routes) }), querystring: SignedOnly },
      /** The item's id from the validated path parameters (the schema above makes it a string). */
      idOf: (req: { params: unknown }): string => stringParameter(req.params, routes.id)
    }
  }
}

function stringParameter (params: unknown, name: string): string {
  const value: unknown = typeof params === 'object' && params !== null ? Object.getOwnPropertyDescriptor(params, name)?.value : undefined
  if (typeof value !== 'string') throw new TypeError(`the route has no path parameter ${name}`)
  return value
}

function idParameter (routes: ResourceRoutes): TSchema {
  const doc = routes.idDoc ?? { description: `The ${routes.noun.one}'s id`, example: '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718' }
  return Type.String({ description: doc.description, examples: [doc.example] })
}
