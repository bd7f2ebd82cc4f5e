import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify'
import { Type, type Static, type TSchema } from 'typebox'
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

/**
 * What the standard routes of a resource call: one service function per route. Methods rather than
 * function-typed members, so that a resource's service with its own input types is one of these.
 */
export interface CrudService<Item, CreateInput, UpdateInput, ReplaceInput = never> {
  /** `query`: the list's own parameters (see `CrudSchemas.listQuery`). */
  list (caller: Caller, page: PageParams, query: any): Promise<Page<Item>>
  /** `include`: GET's own parameter of that name, where the item's query string has one. */
  get (caller: Caller, id: string, include?: string): Promise<Item>
  /** What `get` (without `include`) answers, from the read cache alone; undefined when it does not hold the row. Offers the GET to the lean lane. */
  peek? (caller: Caller, id: string): Item | undefined
  create (caller: Caller, input: CreateInput): Promise<Item | unknown>
  /** PATCH (`merge`) and PUT (`replace`, with the create body unless the resource has a replace body of its own); see `WriteMode`. */
  update (caller: Caller, id: string, input: UpdateInput | CreateInput | ReplaceInput, mode: WriteMode): Promise<Item>
  /** `query`: the delete's own parameters (see `CrudSchemas.removeQuery`). */
  remove (caller: Caller, id: string, query: any): Promise<Deleted>
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

/** A resource's schemas; the service's input types are the bodies' static types. */
export interface CrudSchemas<Create extends TSchema = TSchema, Update extends TSchema = TSchema, Replace extends TSchema = TSchema> {
  item: TSchema
  /** What POST answers; default `item`. */
  created?: TSchema
  create: Create
  update: Update
  /** The list's query string; default: paging only. */
  listQuery?: TSchema
  /** PUT's body; default `create`. `false`: the resource has no PUT. */
  replace?: Replace | false
  /** The delete's query string; default: the signing parameters only. */
  removeQuery?: TSchema
  /** GET one item's query string; default: the signing parameters only. */
  itemQuery?: TSchema
  /** What the API reference adds to the standard descriptions of the operations. */
  docs?: CrudDocs
}

/**
 * The standard routes of a resource: `GET` (a page) and `POST` on the collection, `GET`, `PATCH`,
 * `PUT` and `DELETE` on one item. Each is one call of the service with the caller first. The service's
 * inputs are the static types of the body schemas (checked here, in the signatures); the routes
 * themselves are written once for any schema, so their bodies reach the service as `unknown`.
 */
export function registerCrudRoutes<Item, Create extends TSchema, Update extends TSchema> (
  app: RouteApp, routes: ResourceRoutes, schemas: CrudSchemas<Create, Update> & { replace?: false }, service: CrudService<Item, Static<Create>, Static<Update>>
): void
export function registerCrudRoutes<Item, Create extends TSchema, Update extends TSchema, Replace extends TSchema> (
  app: RouteApp, routes: ResourceRoutes, schemas: CrudSchemas<Create, Update, Replace> & { replace: Replace }, service: CrudService<Item, Static<Create>, Static<Update>, Static<Replace>>
): void
export function registerCrudRoutes (app: RouteApp, routes: ResourceRoutes, schemas: CrudSchemas, service: CrudService<unknown, unknown, unknown, unknown>): void {
  const { read, write, one, errors, tags } = parts(routes)
  const docs = crudOperationDocs(routes.noun, schemas.docs)
  const put = (body: TSchema): void => {
    app.put(one.path, { config: write, schema: { ...docs.replace, ...one.schema, body, response: { 200: schemas.item, ...errors } } },
      async (req) => await service.update(callerOf(req), one.idOf(req), req.body, 'replace'))
  }
  app.get(routes.path, {
    config: read,
    schema: { ...docs.list, tags, querystring: schemas.listQuery ?? PageQuery, response: { 200: pageOf(schemas.item), ...errors } }
  }, async (req) => await service.list(callerOf(req), pageParams(req, routes.pageTokens), req.query))
  app.post(routes.path, {
    config: routes.createShowsSecret === true ? { ...write, idempotencyKey: false } : write,
    schema: { ...docs.create, tags, querystring: SignedOnly, body: schemas.create, response: { 200: schemas.created ?? schemas.item, ...errors } }
  }, async (req) => await service.create(callerOf(req), req.body))
  const peek = service.peek?.bind(service)
  const lean = peek === undefined ? {} : { lean: { param: routes.id, peek: (caller: Caller, id: string) => peek(caller, id) as object | undefined } }
  app.get(one.path, { config: { ...read, ...lean }, schema: { ...docs.get, ...one.schema, querystring: schemas.itemQuery ?? SignedOnly, response: { 200: schemas.item, ...errors } } },
    async (req) => await service.get(callerOf(req), one.idOf(req), optionalString(req.query, 'include')))
  app.patch(one.path, { config: write, schema: { ...docs.update, ...one.schema, body: schemas.update, response: { 200: schemas.item, ...errors } } },
    async (req) => await service.update(callerOf(req), one.idOf(req), req.body, 'merge'))
  if (schemas.replace !== false) put(schemas.replace ?? schemas.create)
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
  const value = optionalString(params, name)
  if (value === undefined) throw new TypeError(`the route has no path parameter ${name}`)
  return value
}

/** A string member of validated input whose schema is a type parameter here (GET's `include`). */
function optionalString (input: unknown, name: string): string | undefined {
  const value: unknown = typeof input === 'object' && input !== null ? Object.getOwnPropertyDescriptor(input, name)?.value : undefined
  return typeof value === 'string' ? value : undefined
}

function idParameter (routes: ResourceRoutes): TSchema {
  const doc = routes.idDoc ?? { description: `The ${routes.noun.one}'s id`, example: '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718' }
  return Type.String({ description: doc.description, examples: [doc.example] })
}
