import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SwaggerOptions } from '@fastify/swagger'
import type { FastifyContextConfig } from 'fastify'
import { webhookEventsDocument } from '../resources/webhooks/index.ts'
import { hoistComponents, shareErrorResponses } from './openapi-components.ts'
import { quietOptionalExamples } from './openapi-parameters.ts'

/** The three signing parameters, described once as security schemes that every signed operation requires together. */
const SECURITY_SCHEMES = {
  api_key: {
    type: 'apiKey',
    in: 'query',
    name: 'api_key',
    description: 'The API key of the user making the request, `<account_code>.<random>` (e.g. `Kq3Zr8WmT2xYb6NcVp1LdG9HsFj4.Xy7kP2qL`).'
  },
  expires: {
    type: 'apiKey',
    in: 'query',
    name: 'expires',
    description: 'Unix time in seconds after which the request is refused (e.g. `1795000000`); 15 minutes ahead is usual.'
  },
  signature: {
    type: 'apiKey',
    in: 'query',
    name: 'signature',
    description: 'First 43 characters of Base64(SHA-256(secret + METHOD + path + sorted parameters + body)), URL-encoded: see "Signing" above.'
  }
} as const

const TAGS = [
  { name: 'users', description: 'The people and tools that call the API, each with a role, an API key and a secret. Administrators only, but for `/v2/users/me`.' },
  { name: 'labels', description: 'A tree of labels per account; assets and syndications refer to them.' },
  { name: 'assets', description: 'Videos, audio, ads, remote and YouTube assets, live streams and channels, with their metadata, labels, player and publishing rule.' },
  { name: 'uploads', description: 'Uploading the media of video, audio and ad assets in chunks (chunk URLs need no signature), completing or abandoning an upload, processing, replacements and the source file.' },
  { name: 'media', description: 'The processed media of uploaded assets, public (the URL is the credential): HLS master and media playlists, segments, preview images and originals, on both listeners, with Range requests.' },
  { name: 'players', description: 'Player settings (branding, watermark, playback) that assets use; one may be the account\'s default.' },
  { name: 'publishing rules', description: 'Where and when assets may play: devices, time windows, domains and countries.' },
  { name: 'playback keys', description: 'Keys that sign playback tokens for assets whose `playback_policy` is `signed`, and tokens the service signs for one asset (docs/playback.md).' },
  { name: 'webhooks', description: 'Signed events about assets, delivered at least once to your endpoints, with their deliveries to see and retry (docs/webhooks.md).' },
  { name: 'syndications', description: 'Public RSS feeds of an account\'s live assets, optionally behind access keys.' },
  { name: 'analytics', description: 'Player events collected unsigned, imported in bulk, and reported by dimension and time.' },
  { name: 'credits', description: 'The per-minute request allowance and what is left of it.' },
  { name: 'operations', description: 'Liveness and readiness checks for load balancers and orchestrators.' }
]

/** What each error status means, whatever the operation; the code in the body names the case. */
const ERROR_RESPONSES: Record<string, string> = {
  400: 'Bad input: a malformed or duplicated query parameter, an invalid parameter or body field, or missing signing parameters. `code` names the case; see /docs/errors.',
  401: 'Not authenticated: the signature does not match, the api_key is unknown or the request has expired (for feeds: an access key is required).',
  403: 'Refused: the caller\'s role may not do this, or (for feeds) the access key is not valid.',
  404: 'Not found: no such route, or no such resource in the caller\'s account (another account\'s ids answer 404 too).',
  409: 'Conflict with the current state: a duplicate, a label with children, the account\'s last administrator, an asset status that cannot change.',
  413: 'The request body is larger than this operation accepts.',
  429: 'Out of credits for this minute: retry after the number of seconds in `Retry-After`.',
  503: 'A dependency (database, analytics store, search) is not available; retry later.'
}

const OVERVIEW = readFileSync(join(import.meta.dirname, 'openapi-overview.md'), 'utf8')

type RouteSchema = Record<string, unknown> & { response?: Record<string, unknown> }

/**
 * The OpenAPI document's options: the overview, the signing parameters as one security requirement,
 * the tags, a description for every error status, and the shared schemas under `components`.
 * Every route states its own summary, description and operationId (the standard CRUD routes get theirs
 * from the resource kit); `npm run check:openapi` refuses a document where one is missing.
 */
export function openapiOptions (): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Reelhouse API', version: '2', description: OVERVIEW, license: { name: 'MIT', identifier: 'MIT' } },
      components: { securitySchemes: SECURITY_SCHEMES },
      // Relative: "Try it out" calls the service that served the page, whatever its public address.
      servers: [{ url: '/', description: 'This service' }],
      security: [{ api_key: [], expires: [], signature: [] }],
      tags: TAGS
    },
    transform: ({ schema, url, route }) => {
      if (schema === undefined) return { schema, url }
      const isPublic = (route.config as FastifyContextConfig | undefined)?.public === true
      return { schema: { ...named(documented(schema as RouteSchema)), ...(isPublic ? { security: [] } : {}) }, url: url.replace(/\*$/, `{${REST}}`) }
    },
    transformObject: (documentObject) => {
      const document = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject
      // OpenAPI 3.1's `webhooks`: what a receiver is sent, one payload schema per event type.
      Object.assign(document, { webhooks: webhookEventsDocument() })
      hoistComponents(document as Parameters<typeof hoistComponents>[0])
      shareErrorResponses(document as Parameters<typeof shareErrorResponses>[0])
      quietOptionalExamples(document as Parameters<typeof quietOptionalExamples>[0])
      return document
    }
  }
}

/** The route schema with each error response described by its status. */
function documented (schema: RouteSchema): RouteSchema {
  if (schema.response === undefined) return schema
  const response = Object.fromEntries(Object.entries(schema.response).map(([status, answer]) => {
    const description = ERROR_RESPONSES[status]
    return [status, description === undefined ? answer : { ...(answer as object), 'x-response-description': description }]
  }))
  return { ...schema, response }
}

/** What the reference calls the rest of a path a route matches with `*` (label paths, a classic report). */
const REST = 'path'

/** OpenAPI has no wildcard: the `*` parameter becomes `{path}`, the rest of the path. */
function named (schema: RouteSchema): RouteSchema {
  const params = schema.params as { properties?: Record<string, unknown>, required?: string[] } | undefined
  if (params?.properties?.['*'] === undefined) return schema
  const { '*': rest, ...others } = params.properties
  return { ...schema, params: { ...params, properties: { ...others, [REST]: rest }, required: (params.required ?? []).map((name) => (name === '*' ? REST : name)) } }
}
