import { Type, type Static, type TSchema } from 'typebox'
import { BooleanInput, described, Name, PageQuery, Problem, SignedErrors, SignedQuery, Timestamp } from '../../http/schemas.ts'
import { Label } from '../labels/index.ts'
import { Player } from '../players/index.ts'
import { PublishingRule } from '../publishing-rules/index.ts'
import { MetadataSchema } from '../kit/metadata.ts'
import { ASSET_STATUSES, ASSET_TYPES, CLIENT_STATUSES, ENCRYPTIONS, MP4_SUPPORT } from './assets-kinds.ts'

/** Request and response schemas of `/v2/assets` and its sub-resources (docs/resources.md, "Assets"). */

const PLAYBACK_POLICY = 'public or signed (a playback token is needed: docs/playback.md), or null for the publishing rule\'s (public without one)'
const nullable = <T extends TSchema>(schema: T, description: string, example: unknown) => Type.Union([schema, Type.Null()], { description, examples: [example] })
// The exact pattern of the shared Name schema, so the error reads "must not contain control characters".
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$'

export const Url = Type.String({ maxLength: 2048, pattern: '^https?://[^\\s\\u0000-\\u001f\\u007f]+$', description: 'Absolute http(s) URL, without spaces or control characters', examples: ['https://cdn.example.com/clip.mp4'] })
/**
 * The schemes a remote asset's stream URL may have: what players and encoders send there — HLS, DASH,
 * progressive files and HDS (`.f4m`, plain HTTP) over http(s), RTMP and its variants (`flash`), RTSP,
 * MMS. The exact pattern of the error serializer, so the error names the schemes.
 */
const STREAM_URL_SCHEMES = ['http', 'https', 'rtmp', 'rtmps', 'rtmpe', 'rtmpt', 'rtmpte', 'rtsp', 'rtsps', 'mms', 'mmsh'] as const
const StreamUrl = Type.String({ maxLength: 2048, pattern: '^(https?|rtmps?|rtmpe|rtmpte?|rtsps?|mmsh?)://[^\\s\\u0000-\\u001f\\u007f]+$', description: `An absolute URL whose scheme is one of ${STREAM_URL_SCHEMES.join(', ')} (HDS manifests are http(s)), without spaces or control characters`, examples: ['rtmp://live.example.com/app/stream'] })
/** Tabs and line breaks are allowed; other control characters are refused by the service. */
export const Description = Type.String({ maxLength: 8192, description: 'At most 8,192 characters; tabs and line breaks allowed', examples: ['Highlights of the final.'] })
export const ExternalId = Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL, description: 'Your own id, unique in the account', examples: ['site/58'] })
const YoutubeId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The YouTube video id (youtube assets), unique in the account', examples: ['dQw4w9WgXcQ'] })
const ResourceId = Type.String({ maxLength: 64 })
const ClockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$' })
const AssetType = Type.Enum(ASSET_TYPES, { description: 'What the asset is; set at creation, never changes', examples: ['remote_asset'] })
const AssetName = described(Name, 'The asset\'s name', 'Cup final highlights')

/** Week days as publishing rules spell them; the API family's asset form (`SUN`) is accepted too. */
export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export const BACKLOT_DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const

const TIME = {
  type: 'range: between two dates; recurring: at times on given week days',
  start_date: 'When a range starts',
  end_date: 'When a range ends',
  start_time: 'When playing may start each recurring day',
  end_time: 'When playing stops each recurring day',
  all_day: 'Recurring days allow the whole day',
  recurring_days: 'The week days a recurring restriction allows',
  time_zone: 'The IANA time zone the times and days are read in (UTC by default)'
}
const TimeZone = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_+/-]*$', description: TIME.time_zone, examples: ['America/New_York'] })

/** Every member optional: PATCH merges into the stored restrictions; a new one starts from the defaults. */
export const TimeRestrictionsInput = Type.Object({
  type: Type.Optional(Type.Enum(['range', 'recurring'], { description: TIME.type, examples: ['range'] })),
  start_date: Type.Optional(nullable(Type.String({ format: 'date-time' }), `${TIME.start_date}: an ISO 8601 date-time with a zone, or null`, '2026-12-01T00:00:00Z')),
  end_date: Type.Optional(nullable(Type.String({ format: 'date-time' }), `${TIME.end_date}: an ISO 8601 date-time with a zone, or null`, '2026-12-31T23:59:59Z')),
  start_time: Type.Optional(nullable(ClockTime, `${TIME.start_time}: HH:MM[:SS], 24-hour UTC, or null`, '18:00')),
  end_time: Type.Optional(nullable(ClockTime, `${TIME.end_time}: HH:MM[:SS], 24-hour UTC, or null`, '23:00')),
  all_day: Type.Optional(described(BooleanInput, TIME.all_day, false)),
  recurring_days: Type.Optional(Type.Array(Type.Enum([...DAYS, ...BACKLOT_DAYS]), { maxItems: 14, description: `${TIME.recurring_days} (monday… or MON…)`, examples: [['saturday', 'sunday']] })),
  time_zone: Type.Optional(TimeZone)
}, { additionalProperties: false, description: 'When the asset may play; PATCH merges it member by member' })

export const TimeRestrictions = Type.Object({
  type: Type.String({ description: TIME.type, examples: ['range'] }),
  start_date: nullable(Timestamp, `${TIME.start_date}, or null`, '2026-12-01T00:00:00Z'),
  end_date: nullable(Timestamp, `${TIME.end_date}, or null`, '2026-12-31T23:59:59Z'),
  start_time: nullable(Type.String(), `${TIME.start_time}, HH:MM:SS UTC, or null`, '18:00:00'),
  end_time: nullable(Type.String(), `${TIME.end_time}, HH:MM:SS UTC, or null`, '23:00:00'),
  all_day: Type.Boolean({ description: TIME.all_day, examples: [false] }),
  recurring_days: Type.Array(Type.String(), { description: TIME.recurring_days, examples: [['saturday', 'sunday']] }),
  time_zone: TimeZone
}, { description: 'When the asset may play' })

export const STREAM_URL_KEYS = ['flash', 'iphone', 'ipad', 'itunes', 'source_file', 'smooth'] as const
/** What processing adds on uploaded types: the storyboard, and the downloads when `mp4_support` asks for them. */
const PROCESSED_URL_KEYS = ['storyboard', 'mp4', 'm4a'] as const
const PROCESSED_URL_DESCRIPTIONS: Record<typeof PROCESSED_URL_KEYS[number], string> = {
  storyboard: 'The storyboard: a WebVTT file whose cues point at thumbnails in JPEG sprite sheets (`sprite-00000.jpg#xywh=0,0,160,90`); grows with processing',
  mp4: 'With `mp4_support: "standard"`: an MP4 download of the top rendition up to 1080p, once processing is done',
  m4a: 'With `mp4_support: "standard"`: an M4A (AAC) download of the audio, once processing is done'
}
const streamUrls = <T extends TSchema, K extends string = typeof STREAM_URL_KEYS[number]>(value: (key: string) => T, description: string, keys: readonly K[] = STREAM_URL_KEYS as unknown as readonly K[]) => Type.Object(
  Object.fromEntries(keys.map((key) => [key, Type.Optional(value(key))])) as Record<K, ReturnType<typeof Type.Optional<T>>>,
  { additionalProperties: false, description })
const streamUrl = (key: string): string => key === 'flash' ? 'rtmp://live.example.com/app/clip' : `https://cdn.example.com/clip-${key}.${key === 'smooth' ? 'ism' : 'mp4'}`
export const StreamUrlsInput = streamUrls((key) => nullable(StreamUrl, `The ${key} rendition's URL (scheme ${STREAM_URL_SCHEMES.join(', ')}), or null`, streamUrl(key)), 'Where a remote asset\'s renditions are; PATCH merges it key by key')
export const StreamUrls = streamUrls(
  (key) => key in PROCESSED_URL_DESCRIPTIONS
    ? nullable(Type.String(), PROCESSED_URL_DESCRIPTIONS[key as typeof PROCESSED_URL_KEYS[number]], `https://media.example.com/media/Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6/${key === 'storyboard' ? 'storyboard.vtt' : `download.${key}`}`)
    : nullable(Type.String(), `The ${key} rendition's URL, or null`, streamUrl(key)),
  'Where the asset plays', [...STREAM_URL_KEYS, ...PROCESSED_URL_KEYS])

/**
 * An integer, or the same digits as a string: a browser uploader's backend forwards form fields as text
 * (`"file_size": "14691458"`).
 */
export function IntegerInput (minimum: number, description: string, example: number) {
  return Type.Union([
    Type.Integer({ minimum, maximum: Number.MAX_SAFE_INTEGER }),
    Type.String({ pattern: '^[0-9]{1,16}$' })
  ], { description, examples: [example] })
}

const VR360_TYPES = ['none', 'monoscopic', 'stereoscopic_top_bottom', 'stereoscopic_left_right'] as const
const HOSTED_AT = 'The page the asset is embedded in, or null'
const CAPTIONS = 'Where the closed captions file (DFXP, WebVTT) is, or null'
const VR360 = 'How a 360° video is projected (none, monoscopic, stereoscopic_top_bottom, stereoscopic_left_right), or null'
const PIXELS = 'URLs requested when the ad plays (ad only), or null'
const NO_SEEK = 'Whether seeking is disabled when the ad plays on its own (ad only)'
const LIVE = 'Whether the remote stream is live (remote_asset only)'

const PLAYER_ID = 'The asset\'s player (else the account\'s default plays it), or null'
const RULE_ID = 'The asset\'s publishing rule, or null'
const DURATION = 'Length in milliseconds'
const PREVIEW = 'Image shown before playback, or null'
const CLICK = 'Where a click on the ad leads (ad only), or null'
const POST_PROCESSING = 'The status an uploaded asset takes once processed'
const MP4 = 'Downloads (video, audio and ad only): `standard` makes `stream_urls.mp4` (the top rendition up to 1080p) and `stream_urls.m4a` (the audio) when the media is processed; `none` (default) makes none. A change applies to the next upload or replacement'
const ENCRYPTION = 'Media encryption (video, audio and ad only): `aes-128` encrypts the HLS segments when the media is processed, their keys served over HTTPS only to viewers the asset\'s rules admit (docs/playback.md, "Encryption"); `none` (default). A change processes the asset\'s media again; the current media plays until the new one is live'

/** Fields a client may write with POST, PATCH and PUT. */
const writable = {
  description: Type.Optional(Description),
  external_id: Type.Optional(nullable(ExternalId, 'Your own id, unique in the account, or null', 'site/58')),
  status: Type.Optional(Type.Enum(ASSET_STATUSES, { description: 'Clients may only switch between live and paused, or repeat the current status', examples: ['paused'] })),
  post_processing_status: Type.Optional(Type.Enum(CLIENT_STATUSES, { description: POST_PROCESSING, examples: ['live'] })),
  mp4_support: Type.Optional(Type.Enum(MP4_SUPPORT, { description: MP4, examples: ['standard'] })),
  encryption: Type.Optional(Type.Enum(ENCRYPTIONS, { description: ENCRYPTION, examples: ['aes-128'] })),
  duration: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: DURATION, examples: [94000] })),
  preview_image_url: Type.Optional(nullable(Url, PREVIEW, 'https://cdn.example.com/clip.jpg')),
  player_id: Type.Optional(nullable(ResourceId, PLAYER_ID, '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718')),
  publishing_rule_id: Type.Optional(nullable(ResourceId, RULE_ID, '7d0b2c4e6f8a4b1c9d3e5f7a9b1c3d5e')),
  playback_policy: Type.Optional(nullable(Type.Enum(['public', 'signed']), PLAYBACK_POLICY, 'signed')),
  time_restrictions: Type.Optional(Type.Union([TimeRestrictionsInput, Type.Null()], { description: 'When the asset may play, or null for always' })),
  stream_urls: Type.Optional(Type.Union([StreamUrlsInput, Type.Null()], { description: 'Where a remote asset\'s renditions are (remote_asset only), or null' })),
  youtube_id: Type.Optional(YoutubeId),
  click_url: Type.Optional(nullable(Url, CLICK, 'https://example.com/offer')),
  hosted_at: Type.Optional(nullable(Url, HOSTED_AT, 'https://www.example.com/final')),
  closed_captions_url: Type.Optional(nullable(Url, CAPTIONS, 'https://cdn.example.com/final.dfxp')),
  vr360type: Type.Optional(nullable(Type.Enum(VR360_TYPES), VR360, 'monoscopic')),
  tracking_pixel_urls: Type.Optional(Type.Union([Type.Array(Url, { maxItems: 50 }), Type.Null()], { description: `${PIXELS}; at most 50`, examples: [['https://ads.example.com/pixel?id=1']] })),
  disable_seek_for_standalone: Type.Optional(described(BooleanInput, NO_SEEK, false)),
  is_live_stream: Type.Optional(described(BooleanInput, LIVE, false))
}

export const CreateAssetBody = Type.Object({
  asset_type: AssetType,
  name: AssetName,
  ...writable,
  file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL, description: 'The uploaded file\'s name (video, audio and ad: required)', examples: ['final.mp4'] })),
  file_size: Type.Optional(IntegerInput(1, 'The uploaded file\'s size in bytes, 1 to 5 TiB (video, audio and ad: required; a numeric string is accepted; an empty file cannot be uploaded)', 73400320)),
  chunk_size: Type.Optional(IntegerInput(1, 'The upload\'s chunk size in bytes (video, audio and ad; absent: one chunk; a numeric string is accepted)', 5242880)),
  generate_captions: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 35 }), { maxItems: 30, description: 'Languages (BCP 47 tags) to generate caption tracks in once the upload completes (video, audio and ad; the service\'s speech-recognition engine must speak them)', examples: [['en']] }))
}, { additionalProperties: false })

/** PATCH: only the fields to change. `asset_type` may be repeated but never changed. */
export const UpdateAssetBody = Type.Object({ asset_type: Type.Optional(AssetType), name: Type.Optional(AssetName), ...writable }, { additionalProperties: false })

/** PUT: the whole asset; fields not given return to their defaults. */
export const ReplaceAssetBody = Type.Object({ asset_type: Type.Optional(AssetType), name: AssetName, ...writable }, { additionalProperties: false })

export const LabelList = Type.Object({ items: Type.Array(Label, { description: 'The asset\'s labels, by full name' }) }, {
  title: 'AssetLabels',
  description: 'An asset\'s labels, all in one answer (not paged)'
})
export const LabelIdsBody = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 500, description: 'Label ids, at most 500', examples: [['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718']] })

/** Players and publishing rules are shown as their own resources define them. */
export { Label, Player, PublishingRule }

/** One rendition in an asset's `processing`: how far it has come. */
export const ProcessingRendition = Type.Object({
  name: Type.String({ description: 'The rendition: `360p`, `720p`, `1080p`, a source-sized one, or `audio`', examples: ['720p'] }),
  state: Type.Union([Type.Literal('pending'), Type.Literal('processing'), Type.Literal('ready'), Type.Literal('failed')], {
    description: 'pending: not started; processing: being made (playable once it is in the master playlist); ready: complete; failed', examples: ['processing']
  }),
  playable: Type.Boolean({ description: 'In the master playlist: its first segments exist, players may choose it', examples: [true] }),
  percent: Type.Integer({ minimum: 0, maximum: 100, description: 'How much of the media it holds so far, 0–100', examples: [40] })
}, { title: 'ProcessingRendition' })

/** The asset's latest media job, as the person waiting for it sees it. */
export const Processing = Type.Object({
  state: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')], {
    description: 'queued: waiting for a worker (`queue_position` says where); running: being made; done; failed (the asset\'s `processing_error` says why)', examples: ['running']
  }),
  queue_position: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'While queued, its place in the queue of every account\'s jobs (1: next to run); else null', examples: [2] }),
  started_at: Type.Union([Type.String(), Type.Null()], { description: 'When the running attempt began; null while queued', examples: ['2026-11-27T10:00:00Z'] }),
  estimated_seconds_left: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'While running, the time to the whole ladder from the speed measured so far; null before there is a measure', examples: [180] }),
  renditions: Type.Array(ProcessingRendition, { description: 'The renditions of the version being made, lowest first; empty before the probe' })
}, { title: 'Processing', description: 'Where the asset\'s media job stands' })

export const Asset = Type.Object({
  embed_code: Type.String({ description: 'The asset\'s id: 32 URL-safe characters', examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] }),
  asset_type: Type.Enum(ASSET_TYPES, { description: 'video, audio, ad, remote_asset, youtube, live_stream or channel', examples: ['remote_asset'] }),
  name: Type.String({ description: 'The asset\'s name', examples: ['Cup final highlights'] }),
  description: Type.String({ description: 'The asset\'s description', examples: ['Highlights of the final.'] }),
  external_id: nullable(Type.String(), 'Your own id, or null', 'site/58'),
  status: Type.Enum(ASSET_STATUSES, { description: 'uploading, processing, live, paused or error', examples: ['live'] }),
  post_processing_status: Type.Enum(CLIENT_STATUSES, { description: POST_PROCESSING, examples: ['live'] }),
  duration: Type.Integer({ description: DURATION, examples: [94000] }),
  original_file_name: nullable(Type.String(), 'The uploaded file\'s name, or null', 'final.mp4'),
  file_size: nullable(Type.Integer(), 'The uploaded file\'s size in bytes, or null', 73400320),
  preview_image_url: nullable(Type.String(), PREVIEW, 'https://cdn.example.com/clip.jpg'),
  player_id: nullable(Type.String(), PLAYER_ID, '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'),
  publishing_rule_id: nullable(Type.String(), RULE_ID, '7d0b2c4e6f8a4b1c9d3e5f7a9b1c3d5e'),
  playback_policy: nullable(Type.Enum(['public', 'signed']), PLAYBACK_POLICY, null),
  time_restrictions: Type.Union([TimeRestrictions, Type.Null()], { description: 'When the asset may play, or null for always' }),
  stream_urls: Type.Optional(Type.Union([StreamUrls, Type.Null()], { description: 'Where the asset plays: a remote asset\'s renditions as set; on video, audio and ad assets, once processed, `iphone` and `ipad` (the HLS master playlist), `source_file` (the original), `storyboard` for video, and `mp4` and `m4a` with `mp4_support: "standard"`; null before' })),
  mp4_support: Type.Optional(Type.Enum(MP4_SUPPORT, { description: MP4, examples: ['none'] })),
  encryption: Type.Optional(Type.Enum(ENCRYPTIONS, { description: ENCRYPTION, examples: ['none'] })),
  processing_progress: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'How far processing has come, 0–100 (video, audio and ad only; read-only)', examples: [100] })),
  processing_error: Type.Optional(nullable(Type.String(), 'Why processing failed, in words for the person who uploaded the file, or null (video, audio and ad only; read-only)', 'The file has no video or audio stream.')),
  processing: Type.Optional(Type.Union([Processing, Type.Null()], { description: 'While its media job waits or runs, where it stands: the queue position, each rendition\'s state and percent, the time left (video, audio and ad only; read-only); null once processing is over (`GET /v2/assets/{asset_id}/streams` keeps the last job\'s)' })),
  processing_warnings: Type.Optional(Type.Array(Type.String(), { description: 'What processing noticed without failing, in words for the person who uploaded the file, e.g. a file that ends before its header says; for an asset made by a direct upload, also the settings its completion dropped (a label, player or publishing rule deleted meanwhile) (video, audio and ad only; read-only)', examples: [['The file ends after 3.8 s of its 60 s: it may be cut short.']] })),
  hosted_at: nullable(Type.String(), HOSTED_AT, 'https://www.example.com/final'),
  closed_captions_url: nullable(Type.String(), CAPTIONS, 'https://cdn.example.com/final.dfxp'),
  vr360type: nullable(Type.String(), VR360, 'monoscopic'),
  tracking_pixel_urls: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { description: PIXELS, examples: [['https://ads.example.com/pixel?id=1']] })),
  disable_seek_for_standalone: Type.Optional(Type.Boolean({ description: NO_SEEK, examples: [false] })),
  is_live_stream: Type.Optional(Type.Boolean({ description: LIVE, examples: [false] })),
  youtube_id: Type.Optional(nullable(Type.String(), 'The YouTube video id (youtube only)', 'dQw4w9WgXcQ')),
  click_url: Type.Optional(nullable(Type.String(), CLICK, 'https://example.com/offer')),
  created_at: described(Timestamp, 'When the asset was created', '2026-11-22T10:00:00Z'),
  updated_at: described(Timestamp, 'When the asset, its metadata, labels, player or rule last changed', '2026-11-22T10:05:00Z'),
  metadata: Type.Optional(described(MetadataSchema, 'The asset\'s metadata (with include=metadata)', { sport: 'football' })),
  labels: Type.Optional(Type.Array(Label, { description: 'The asset\'s labels (with include=labels)' })),
  player: Type.Optional(Type.Union([Player, Type.Null()], { description: 'The player that plays it: its own, else the default, else null (with include=player)' }))
}, { title: 'Asset', description: 'An asset: a video, audio, ad, remote or YouTube asset, live stream or channel' })

export const DeletedAsset = Type.Object({
  embed_code: Type.String({ description: 'The deleted asset\'s embed code', examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] }),
  external_id: nullable(Type.String(), 'Its external id, or null', 'site/58'),
  asset_type: Type.Enum(ASSET_TYPES, { description: 'Its type', examples: ['video'] }),
  name: Type.String({ description: 'Its name', examples: ['Cup final highlights'] }),
  deleted_at: described(Timestamp, 'When it was deleted', '2026-11-23T08:00:00Z')
}, { title: 'DeletedAsset', description: 'An asset that was deleted' })

// Path ids are plain strings: one of the wrong shape is a 404 naming it, like any id the account lacks.
const pathId = (description: string, example: string) => Type.String({ description, examples: [example] })
export const ASSET_ID_DOC = { description: 'The asset\'s embed code or external_id (a "/" percent-encoded)', example: 'Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6' }
const assetId = pathId(ASSET_ID_DOC.description, ASSET_ID_DOC.example)
const labelId = pathId('The label\'s id', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718')
export const AssetParams = Type.Object({ asset_id: assetId })
export const AssetLabelParams = Type.Object({ asset_id: assetId, label_id: labelId })
export const AssetPlayerParams = Type.Object({ asset_id: assetId, player_id: pathId('The player\'s id', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718') })
export const AssetRuleParams = Type.Object({ asset_id: assetId, publishing_rule_id: pathId('The publishing rule\'s id', '7d0b2c4e6f8a4b1c9d3e5f7a9b1c3d5e') })
export const LabelParams = Type.Object({ label_id: labelId })

const listFilters = {
  where: Type.Optional(Type.String({ description: 'A filter on the assets\' fields, metadata and labels', examples: ['status=\'live\' AND labels INCLUDES \'Sports\''] })),
  orderby: Type.Optional(Type.String({ description: 'name, duration, asset_type, created_at or updated_at, then ascending or descending', examples: ['name ascending'] })),
  include: Type.Optional(Type.String({ description: 'Any of metadata, labels and player, comma-separated', examples: ['metadata,labels'] }))
}
export const AssetsQuery = Type.Object({ ...PageQuery.properties, ...listFilters })
export const AssetQuery = Type.Object({ ...SignedQuery, include: listFilters.include })

/** Routes whose request carries no fields (association PUTs): a body may be empty or `{}`. */
export const NoBody = Type.Object({}, { additionalProperties: false, description: 'No fields: an empty body or {}', examples: [{}] })

export const AssetErrors = { ...SignedErrors, 409: Problem }

export type ApiAsset = Static<typeof Asset>
export type ApiProcessing = Static<typeof Processing>
export type ApiDeletedAsset = Static<typeof DeletedAsset>
export type ApiTimeRestrictions = Static<typeof TimeRestrictions>
export type ApiStreamUrls = Static<typeof StreamUrls>
export type CreateAssetInput = Static<typeof CreateAssetBody>
export type UpdateAssetInput = Static<typeof UpdateAssetBody>
export type ReplaceAssetInput = Static<typeof ReplaceAssetBody>
export type AssetsQuery = Static<typeof AssetsQuery>
