import { Type, type TSchema } from 'typebox'
import { BooleanInput, Empty, Name, pageOf, PageQuery, Problem, SignedErrors, SignedQuery, Timestamp } from '../http/schemas.ts'
import { Label } from '../labels/index.ts'
import { Player } from '../players/index.ts'
import { PublishingRule } from '../publishing-rules/index.ts'
import { ASSET_STATUSES, ASSET_TYPES, CLIENT_STATUSES } from './asset-kinds.ts'

/** Request and response schemas of `/v2/assets` and its sub-resources (product.md §8). */

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
// The exact pattern of the shared Name schema, so the error reads "must not contain control characters".
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$'

export const Url = Type.String({ maxLength: 2048, pattern: '^https?://[^\\s]+$', description: 'Absolute http(s) URL' })
/** Tabs and line breaks are allowed; other control characters are refused by the service. */
export const Description = Type.String({ maxLength: 8192 })
export const ExternalId = Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL, description: 'Your own id, unique in the account' })
const YoutubeId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })
const ResourceId = Type.String({ maxLength: 64, description: 'Id of a resource of the same account' })
const ClockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$', description: 'HH:MM[:SS], 24-hour' })

/** Week days as publishing rules spell them; Backlot's asset form (`SUN`, backlot-api.md §1.2) is accepted too. */
export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export const BACKLOT_DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const

/** Every member optional: PATCH merges into the stored restrictions; a new one starts from the defaults. */
export const TimeRestrictionsInput = Type.Object({
  type: Type.Optional(Type.Enum(['range', 'recurring'])),
  start_date: Type.Optional(nullable(Type.String({ format: 'date-time' }))),
  end_date: Type.Optional(nullable(Type.String({ format: 'date-time' }))),
  start_time: Type.Optional(nullable(ClockTime)),
  end_time: Type.Optional(nullable(ClockTime)),
  all_day: Type.Optional(BooleanInput),
  recurring_days: Type.Optional(Type.Array(Type.Enum([...DAYS, ...BACKLOT_DAYS]), { maxItems: 14 }))
}, { additionalProperties: false })

export const TimeRestrictions = Type.Object({
  type: Type.String(),
  start_date: nullable(Timestamp),
  end_date: nullable(Timestamp),
  start_time: nullable(Type.String()),
  end_time: nullable(Type.String()),
  all_day: Type.Boolean(),
  recurring_days: Type.Array(Type.String())
})

export const STREAM_URL_KEYS = ['flash', 'iphone', 'ipad', 'itunes', 'source_file', 'smooth'] as const
const streamUrls = <T extends TSchema>(value: T) => Type.Object(
  Object.fromEntries(STREAM_URL_KEYS.map((key) => [key, Type.Optional(value)])) as Record<typeof STREAM_URL_KEYS[number], ReturnType<typeof Type.Optional<T>>>,
  { additionalProperties: false })
export const StreamUrlsInput = streamUrls(nullable(Url))
export const StreamUrls = streamUrls(nullable(Type.String()))

/** Fields a client may write with POST, PATCH and PUT. */
const writable = {
  description: Type.Optional(Description),
  external_id: Type.Optional(nullable(ExternalId)),
  status: Type.Optional(Type.Enum(ASSET_STATUSES)),
  post_processing_status: Type.Optional(Type.Enum(CLIENT_STATUSES)),
  duration: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Milliseconds' })),
  preview_image_url: Type.Optional(nullable(Url)),
  player_id: Type.Optional(nullable(ResourceId)),
  publishing_rule_id: Type.Optional(nullable(ResourceId)),
  time_restrictions: Type.Optional(nullable(TimeRestrictionsInput)),
  stream_urls: Type.Optional(nullable(StreamUrlsInput)),
  youtube_id: Type.Optional(YoutubeId),
  click_url: Type.Optional(nullable(Url))
}

export const CreateAssetBody = Type.Object({
  asset_type: Type.Enum(ASSET_TYPES),
  name: Name,
  ...writable,
  file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL })),
  file_size: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  chunk_size: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))
}, { additionalProperties: false })

/** PATCH: only the fields to change. `asset_type` may be repeated but never changed. */
export const UpdateAssetBody = Type.Object({ asset_type: Type.Optional(Type.Enum(ASSET_TYPES)), name: Type.Optional(Name), ...writable }, { additionalProperties: false })

/** PUT: the whole asset; fields not given return to their defaults. */
export const ReplaceAssetBody = Type.Object({ asset_type: Type.Optional(Type.Enum(ASSET_TYPES)), name: Name, ...writable }, { additionalProperties: false })

export const Metadata = Type.Record(Type.String(), Type.String())
export const MetadataBody = Type.Record(Type.String(), Type.String({ maxLength: 2048 }))
/** PATCH merges; a null value removes the name. */
export const MetadataPatchBody = Type.Record(Type.String(), nullable(Type.String({ maxLength: 2048 })))

export const LabelList = Type.Object({ items: Type.Array(Label) })
export const LabelIdsBody = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 500, description: 'Label ids' })

/** Players and publishing rules are shown as their own resources define them. */
export { Label, Player, PublishingRule }

export const Asset = Type.Object({
  embed_code: Type.String(),
  asset_type: Type.String(),
  name: Type.String(),
  description: Type.String(),
  external_id: nullable(Type.String()),
  status: Type.String(),
  post_processing_status: Type.String(),
  duration: Type.Integer(),
  original_file_name: nullable(Type.String()),
  file_size: nullable(Type.Integer()),
  preview_image_url: nullable(Type.String()),
  player_id: nullable(Type.String()),
  publishing_rule_id: nullable(Type.String()),
  time_restrictions: nullable(TimeRestrictions),
  stream_urls: Type.Optional(nullable(StreamUrls)),
  youtube_id: Type.Optional(nullable(Type.String())),
  click_url: Type.Optional(nullable(Type.String())),
  created_at: Timestamp,
  updated_at: Timestamp,
  metadata: Type.Optional(Metadata),
  labels: Type.Optional(Type.Array(Label)),
  player: Type.Optional(nullable(Player))
})
export const AssetsPage = pageOf(Asset)

export const DeletedAsset = Type.Object({
  embed_code: Type.String(),
  external_id: nullable(Type.String()),
  asset_type: Type.String(),
  name: Type.String(),
  deleted_at: Timestamp
})
export const DeletedAssetsPage = pageOf(DeletedAsset)

export const AssetParams = Type.Object({ asset_id: Type.String({ description: 'Embed code or external_id' }) })
export const AssetLabelParams = Type.Object({ asset_id: Type.String(), label_id: Type.String() })
export const AssetPlayerParams = Type.Object({ asset_id: Type.String(), player_id: Type.String() })
export const AssetRuleParams = Type.Object({ asset_id: Type.String(), publishing_rule_id: Type.String() })
export const LabelParams = Type.Object({ label_id: Type.String() })

const listFilters = {
  where: Type.Optional(Type.String({ description: 'Filter, e.g. status=\'live\' AND labels INCLUDES \'Sports\'' })),
  orderby: Type.Optional(Type.String({ description: 'name|duration|asset_type|created_at|updated_at, then ascending|descending' })),
  include: Type.Optional(Type.String({ description: 'metadata,labels,player' }))
}
export const AssetsQuery = Type.Object({ ...PageQuery.properties, ...listFilters })
export const AssetQuery = Type.Object({ ...SignedQuery, include: listFilters.include })
export const SignedOnlyQuery = Type.Object(SignedQuery)
export const DeletedAssetsQuery = PageQuery

/** Routes whose request carries no fields (association PUTs): a body may be empty or `{}`. */
export const NoBody = Type.Object({}, { additionalProperties: false })

export const AssetErrors = { ...SignedErrors, 409: Problem }
export { Empty }
