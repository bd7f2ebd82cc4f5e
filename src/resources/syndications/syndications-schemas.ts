import { Type, type Static, type TSchema } from 'typebox'
import { ASSET_TYPES } from '../assets/index.ts'
import { BooleanInput, described, Name, Problem, SignedErrors, Timestamp } from '../../http/schemas.ts'

/** Request and response schemas of `/v2/syndications` and its feed (docs/resources.md, "Syndications"). */

export const SYNDICATION_TYPES = ['mrss', 'source', 'mp4', 'itunes', 'roku', 'google', 'youtube'] as const
export type SyndicationType = typeof SYNDICATION_TYPES[number]

const nullable = <T extends TSchema>(schema: T, description: string, example: unknown) => Type.Union([schema, Type.Null()], { description, examples: [example] })
// The exact pattern of the shared Name schema, so the error reads "must not contain control characters".
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$'
const Line = (maxLength: number, description: string, example: string) => Type.String({ maxLength, pattern: NO_CONTROL, description, examples: [example] })

const TEXT = {
  include_all_content: 'true: every live asset of the account; false: those carrying one of include_labels',
  include_labels: 'Label ids, used when include_all_content is false; repeats count once',
  asset_types: 'The asset types the feed shows; empty: every type',
  title: 'The feed\'s title (the name when empty)',
  description: 'The feed\'s description',
  keywords: 'The feed\'s keywords',
  author: 'The feed\'s author (iTunes)',
  category: 'The feed\'s category',
  require_access_key: 'Whether the feed needs an access_key parameter'
}
const SyndicationType = Type.Enum(SYNDICATION_TYPES, { description: 'The feed\'s flavour: it chooses the media URLs and, for itunes, the podcast tags', examples: ['mrss'] })
const SyndicationName = described(Name, 'The syndication\'s name', 'Partner feed')

const fields = {
  include_all_content: Type.Optional(described(BooleanInput, TEXT.include_all_content, false)),
  include_labels: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: `${TEXT.include_labels}; at most 100`, examples: [['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718']] })),
  asset_types: Type.Optional(Type.Array(Type.Enum(ASSET_TYPES), { maxItems: 20, description: `${TEXT.asset_types}; repeats count once`, examples: [['video', 'remote_asset']] })),
  title: Type.Optional(Line(255, TEXT.title, 'Example Media highlights')),
  /** Tabs and line breaks are allowed; other control characters are refused by the service. */
  description: Type.Optional(Type.String({ maxLength: 4096, description: `${TEXT.description}; at most 4,096 characters, tabs and line breaks allowed`, examples: ['The best moments of every match.'] })),
  keywords: Type.Optional(Type.Union([Line(1024, TEXT.keywords, 'football, highlights'), Type.Null()], { description: `${TEXT.keywords}, or null`, examples: ['football, highlights'] })),
  author: Type.Optional(Type.Union([Line(255, TEXT.author, 'Example Media'), Type.Null()], { description: `${TEXT.author}, or null`, examples: ['Example Media'] })),
  category: Type.Optional(Type.Union([Line(255, TEXT.category, 'Sports'), Type.Null()], { description: `${TEXT.category}, or null`, examples: ['Sports'] })),
  require_access_key: Type.Optional(described(BooleanInput, TEXT.require_access_key, true))
}

export const CreateSyndicationBody = Type.Object({ name: SyndicationName, type: SyndicationType, ...fields }, { additionalProperties: false })
export const UpdateSyndicationBody = Type.Object({ name: Type.Optional(SyndicationName), type: Type.Optional(SyndicationType), ...fields }, { additionalProperties: false })

export const Syndication = Type.Object({
  id: Type.String({ description: 'The syndication\'s id', examples: ['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'] }),
  name: Type.String({ description: 'The syndication\'s name', examples: ['Partner feed'] }),
  type: Type.Enum(SYNDICATION_TYPES, { description: 'mrss, source, mp4, itunes, roku, google or youtube', examples: ['mrss'] }),
  include_all_content: Type.Boolean({ description: TEXT.include_all_content, examples: [false] }),
  include_labels: Type.Array(Type.String(), { description: TEXT.include_labels, examples: [['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718']] }),
  asset_types: Type.Array(Type.String(), { description: TEXT.asset_types, examples: [['video', 'remote_asset']] }),
  title: Type.String({ description: TEXT.title, examples: ['Example Media highlights'] }),
  description: Type.String({ description: TEXT.description, examples: ['The best moments of every match.'] }),
  keywords: nullable(Type.String(), `${TEXT.keywords}, or null`, 'football, highlights'),
  author: nullable(Type.String(), `${TEXT.author}, or null`, 'Example Media'),
  category: nullable(Type.String(), `${TEXT.category}, or null`, 'Sports'),
  require_access_key: Type.Boolean({ description: TEXT.require_access_key, examples: [true] }),
  feed_url: Type.String({ description: 'Relative URL of the public feed (read-only)', examples: ['/v2/syndications/3f2a9c0e5b7d4e1fa6c8b0d2e4f60718/feed?pcode=Kq3Zr8WmT2xYb6NcVp1LdG9HsFj4'] }),
  created_at: described(Timestamp, 'When the syndication was created', '2026-11-22T10:00:00Z'),
  updated_at: described(Timestamp, 'When the syndication last changed', '2026-11-22T10:05:00Z')
}, { title: 'Syndication', description: 'A syndication: a public RSS feed of the account\'s live assets' })

export const AccessKey = Type.Object({
  access_key: Type.String({ description: 'The key, to pass as the feed\'s access_key parameter', examples: ['hV3kQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] }),
  created_at: described(Timestamp, 'When the key was created', '2026-11-22T10:00:00Z')
}, { title: 'AccessKey', description: 'An access key of a syndication\'s feed' })
export const AccessKeyList = Type.Object({ items: Type.Array(AccessKey, { description: 'The syndication\'s access keys, oldest first' }) }, {
  title: 'AccessKeys',
  description: 'A syndication\'s access keys, all in one answer (not paged)'
})

const syndicationId = Type.String({ description: 'The syndication\'s id', examples: ['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'] })
export const SyndicationParams = Type.Object({ syndication_id: syndicationId })
export const AccessKeyParams = Type.Object({ syndication_id: syndicationId, access_key: Type.String({ description: 'The access key', examples: ['hV3kQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] }) })

export const FeedQuery = Type.Object({
  pcode: Type.String({ description: 'Account code (the part of an API key before the dot)', examples: ['Kq3Zr8WmT2xYb6NcVp1LdG9HsFj4'] }),
  access_key: Type.Optional(Type.String({ description: 'Required when the syndication requires access keys', examples: ['hV3kQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] })),
  limit: Type.Optional(Type.String({ description: 'Items per page, 1–500 (default 20)', examples: ['20'] })),
  page_token: Type.Optional(Type.String({ description: 'Opaque token from the feed\'s atom:link rel="next"', examples: ['eyJwIjpbIjIwMjYtMTEtMjJUMTA6MDA6MDBaIl19.Zk3j'] })),
  paging_token: Type.Optional(Type.String({ description: 'Synonym of page_token', examples: ['eyJwIjpbIjIwMjYtMTEtMjJUMTA6MDA6MDBaIl19.Zk3j'] }))
})
export const FeedResponse = {
  description: 'The feed, in the form the syndication\'s type names',
  content: {
    'application/rss+xml': { schema: Type.String({ description: 'RSS 2.0 with Media RSS (and iTunes tags for itunes): every type but roku and google', examples: ['<?xml version="1.0"?><rss version="2.0">…</rss>'] }) },
    'application/json': { schema: Type.String({ description: 'Roku\'s JSON content feed (roku), as text', examples: ['{"providerName":"Example Media","lastUpdated":"2026-11-22T10:00:00+00:00","language":"en","shortFormVideos":[]}'] }) },
    'application/xml': { schema: Type.String({ description: 'A Google video sitemap (google)', examples: ['<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">…</urlset>'] }) }
  }
}

/** `POST /:id/access_keys` takes no fields: a body may be empty or `{}`. */
export const NoBody = Type.Object({}, { additionalProperties: false, description: 'No fields: an empty body or {}', examples: [{}] })

export const SyndicationErrors = { ...SignedErrors, 409: Problem }
export const FeedErrors = { 400: Problem, 401: Problem, 403: Problem, 404: Problem }

export type ApiSyndication = Static<typeof Syndication>
export type ApiAccessKey = Static<typeof AccessKey>
export type CreateSyndicationInput = Static<typeof CreateSyndicationBody>
export type UpdateSyndicationInput = Static<typeof UpdateSyndicationBody>
export type FeedQuery = Static<typeof FeedQuery>
