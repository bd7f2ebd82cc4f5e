import { Type, type TSchema } from 'typebox'
import { ASSET_TYPES } from '../assets/index.ts'
import { BooleanInput, Empty, Name, pageOf, PageQuery, Problem, SignedErrors, SignedQuery, Timestamp } from '../http/schemas.ts'

/** Request and response schemas of `/v2/syndications` (product.md §8, backlot-api.md §1.6). */

export const SYNDICATION_TYPES = ['mrss', 'source', 'mp4', 'itunes', 'roku', 'google', 'youtube'] as const
export type SyndicationType = typeof SYNDICATION_TYPES[number]

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
// The exact pattern of the shared Name schema, so the error reads "must not contain control characters".
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$'
const Line = (maxLength: number) => Type.String({ maxLength, pattern: NO_CONTROL })

const fields = {
  include_all_content: Type.Optional(BooleanInput),
  include_labels: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: 'Label ids, used when include_all_content is false; repeats count once' })),
  asset_types: Type.Optional(Type.Array(Type.Enum(ASSET_TYPES), { maxItems: 20, description: 'Empty: every type; repeats count once' })),
  title: Type.Optional(Line(255)),
  /** Tabs and line breaks are allowed; other control characters are refused by the service. */
  description: Type.Optional(Type.String({ maxLength: 4096 })),
  keywords: Type.Optional(nullable(Line(1024))),
  author: Type.Optional(nullable(Line(255))),
  category: Type.Optional(nullable(Line(255))),
  require_access_key: Type.Optional(BooleanInput)
}

export const CreateSyndicationBody = Type.Object({ name: Name, type: Type.Enum(SYNDICATION_TYPES), ...fields }, { additionalProperties: false })
export const UpdateSyndicationBody = Type.Object({ name: Type.Optional(Name), type: Type.Optional(Type.Enum(SYNDICATION_TYPES)), ...fields }, { additionalProperties: false })
export const ReplaceSyndicationBody = CreateSyndicationBody

export const Syndication = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  include_all_content: Type.Boolean(),
  include_labels: Type.Array(Type.String()),
  asset_types: Type.Array(Type.String()),
  title: Type.String(),
  description: Type.String(),
  keywords: nullable(Type.String()),
  author: nullable(Type.String()),
  category: nullable(Type.String()),
  require_access_key: Type.Boolean(),
  feed_url: Type.String({ description: 'Relative URL of the public feed (read-only)' }),
  created_at: Timestamp,
  updated_at: Timestamp
})
export const SyndicationsPage = pageOf(Syndication)

export const AccessKey = Type.Object({ access_key: Type.String(), created_at: Timestamp })
export const AccessKeyList = Type.Object({ items: Type.Array(AccessKey) })

export const SyndicationParams = Type.Object({ syndication_id: Type.String() })
export const AccessKeyParams = Type.Object({ syndication_id: Type.String(), access_key: Type.String() })
export const SyndicationsQuery = PageQuery
export const SyndicationQuery = Type.Object(SignedQuery)

export const FeedQuery = Type.Object({
  pcode: Type.String({ description: 'Account code (the part of an API key before the dot)' }),
  access_key: Type.Optional(Type.String({ description: 'Required when the syndication requires access keys' })),
  limit: Type.Optional(Type.String({ description: 'Items per page, 1–500 (default 20)' })),
  page_token: Type.Optional(Type.String({ description: 'Opaque token from the feed\'s atom:link rel="next"' })),
  paging_token: Type.Optional(Type.String({ description: 'Synonym of page_token' }))
})
export const FeedResponse = { content: { 'application/rss+xml': { schema: Type.String({ description: 'RSS 2.0 with Media RSS (and iTunes tags for itunes)' }) } } }

/** `POST /:id/access_keys` takes no fields: a body may be empty or `{}`. */
export const NoBody = Type.Object({}, { additionalProperties: false })

export const SyndicationErrors = { ...SignedErrors, 409: Problem }
export const FeedErrors = { 400: Problem, 401: Problem, 403: Problem, 404: Problem }
export { Empty }
