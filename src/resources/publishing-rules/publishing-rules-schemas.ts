import { Type, type Static } from 'typebox'
import { BooleanInput, described, HexId, Name, SignedErrors, Timestamp } from '../../http/schemas.ts'

/** The API family's device families, a new rule's default. */
export const DEVICE_FAMILIES = ['iphone', 'ipad', 'android', 'blackberry'] as const
/** Device types as analytics names them (from the user agent). */
export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet', 'settop'] as const
export const DEVICES = [...DEVICE_FAMILIES, ...DEVICE_TYPES] as const
export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
/** `whitelist`/`blacklist` are the spellings of the API family's older clients, accepted and stored as allow/deny. */
export const LIST_TYPES = ['allow', 'deny', 'whitelist', 'blacklist'] as const

const Device = Type.Enum(DEVICES, { description: 'A device family (iphone, ipad, android, blackberry) or a device type as analytics names it (desktop, mobile, tablet, settop)', examples: ['iphone'] })
const Day = Type.Enum(DAYS, { description: 'A day of the week', examples: ['monday'] })
const ListTypeIn = Type.Enum(LIST_TYPES, { description: 'allow: only those listed; deny: all but those listed (whitelist and blacklist are accepted as synonyms)', examples: ['allow'] })
const ListType = Type.Enum(['allow', 'deny'], { description: 'allow: only those listed; deny: all but those listed', examples: ['deny'] })
const RangeType = Type.Enum(['range', 'recurring'], { description: 'range: between two dates; recurring: at times on given week days', examples: ['recurring'] })
const DateTime = (description: string, example: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: `${description}: an ISO 8601 date-time with a zone, or null`, examples: [example] })
const TimeOfDay = (description: string, example: string) => Type.Union([Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$' }), Type.Null()], { description: `${description}: HH:MM or HH:MM:SS (UTC), or null`, examples: [example] })
const Domain = Type.String({
  maxLength: 253,
  pattern: '^(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$',
  description: 'A host name such as example.com or *.example.com',
  examples: ['*.example.com']
})
const Country = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code (or EU)', examples: ['PT'] })

const TIME = {
  start_date: 'When a range starts',
  end_date: 'When a range ends (later than start_date)',
  start_time: 'When playing may start each recurring day',
  end_time: 'When playing stops each recurring day',
  all_day: 'Recurring days allow the whole day (no start_time and end_time needed)',
  recurring_days: 'The week days a recurring restriction allows, in week order',
  time_zone: 'The IANA time zone the dates without a zone, the times and the days are read in'
}
/** An IANA zone name (checked against the zones the runtime knows). */
export const TimeZone = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_+/-]*$', description: 'An IANA time zone name, such as Europe/Lisbon; UTC by default', examples: ['Europe/Lisbon'] })
const NO_REFERRER = 'Whether a request naming no site (no Origin, no Referer: a native app, a direct link) may play when domains are listed'
const DEVICES_TEXT = 'Devices that may play; an empty list allows every device'
const POLICY_TEXT = 'public: the media URL plays for anyone the restrictions allow; signed: it also needs a playback token (docs/playback.md). An asset\'s own `playback_policy` wins when set'
export const PlaybackPolicy = Type.Enum(['public', 'signed'], { description: POLICY_TEXT, examples: ['signed'] })

// Output shapes: every field, always present.
const TimeRestrictions = Type.Object({
  type: RangeType,
  start_date: Type.Union([Timestamp, Type.Null()], { description: `${TIME.start_date}, or null`, examples: ['2026-12-01T00:00:00Z'] }),
  end_date: Type.Union([Timestamp, Type.Null()], { description: `${TIME.end_date}, or null`, examples: ['2026-12-31T23:59:59Z'] }),
  start_time: Type.Union([Type.String(), Type.Null()], { description: `${TIME.start_time}, HH:MM:SS UTC, or null`, examples: ['18:00:00'] }),
  end_time: Type.Union([Type.String(), Type.Null()], { description: `${TIME.end_time}, HH:MM:SS UTC, or null`, examples: ['23:00:00'] }),
  all_day: Type.Boolean({ description: TIME.all_day, examples: [false] }),
  recurring_days: Type.Array(Day, { description: TIME.recurring_days, examples: [['saturday', 'sunday']] }),
  time_zone: described(TimeZone, TIME.time_zone, 'Europe/Lisbon')
}, { description: 'When assets may play' })

const settings = {
  name: described(Name, 'The rule\'s name', 'Weekend evenings'),
  allowed_devices: Type.Array(Device, { description: DEVICES_TEXT, examples: [['iphone', 'android']] }),
  time_restrictions: TimeRestrictions,
  domain_restrictions: Type.Object({
    type: ListType,
    domains: Type.Array(Type.String(), { description: 'Host names, lowercase', examples: [['example.com', '*.example.org']] }),
    allow_no_referrer: Type.Boolean({ description: NO_REFERRER, examples: [false] })
  }, { description: 'On which sites assets may play' }),
  geographic_restrictions: Type.Object({
    type: ListType,
    countries: Type.Array(Type.String(), { description: 'ISO 3166-1 alpha-2 codes (and EU), uppercase', examples: [['PT', 'BR']] })
  }, { description: 'In which countries assets may play' }),
  playback_policy: PlaybackPolicy
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- a schema kept for its Static type (RuleSettings below).
const RuleSettings = Type.Object(settings)
export const PublishingRule = Type.Object({
  id: described(HexId, 'The rule\'s id', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'),
  ...settings,
  created_at: described(Timestamp, 'When the rule was created', '2026-11-22T10:00:00Z'),
  updated_at: described(Timestamp, 'When the rule last changed', '2026-11-22T10:05:00Z')
}, { title: 'PublishingRule', description: 'A publishing rule: on which devices, when, where and on which sites assets may play' })

// Input shapes: any subset; nested objects merge field by field on PATCH, lists replace.
const TimeRestrictionsInput = Type.Object({
  type: Type.Optional(RangeType),
  start_date: Type.Optional(DateTime(TIME.start_date, '2026-12-01T00:00:00Z')),
  end_date: Type.Optional(DateTime(TIME.end_date, '2026-12-31T23:59:59Z')),
  start_time: Type.Optional(TimeOfDay(TIME.start_time, '18:00')),
  end_time: Type.Optional(TimeOfDay(TIME.end_time, '23:00')),
  all_day: Type.Optional(described(BooleanInput, TIME.all_day, false)),
  recurring_days: Type.Optional(Type.Array(Day, { maxItems: 7, description: TIME.recurring_days, examples: [['saturday', 'sunday']] })),
  time_zone: Type.Optional(described(TimeZone, TIME.time_zone, 'Europe/Lisbon'))
}, { additionalProperties: false, description: 'When assets may play; PATCH merges it field by field' })

const optionalFields = {
  allowed_devices: Type.Optional(Type.Array(Device, { maxItems: DEVICES.length, description: DEVICES_TEXT, examples: [['iphone', 'android']] })),
  time_restrictions: Type.Optional(TimeRestrictionsInput),
  domain_restrictions: Type.Optional(Type.Object({
    type: Type.Optional(ListTypeIn),
    domains: Type.Optional(Type.Array(Domain, { maxItems: 1000, description: 'At most 1,000 host names', examples: [['example.com', '*.example.org']] })),
    allow_no_referrer: Type.Optional(described(BooleanInput, NO_REFERRER, false))
  }, { additionalProperties: false, description: 'On which sites assets may play' })),
  geographic_restrictions: Type.Optional(Type.Object({
    type: Type.Optional(ListTypeIn),
    countries: Type.Optional(Type.Array(Country, { maxItems: 300, description: 'At most 300 country codes', examples: [['PT', 'BR']] }))
  }, { additionalProperties: false, description: 'In which countries assets may play' })),
  playback_policy: Type.Optional(PlaybackPolicy)
}

export const CreateRuleBody = Type.Object({ name: settings.name, ...optionalFields }, { additionalProperties: false })
export const UpdateRuleBody = Type.Object({ name: Type.Optional(settings.name), ...optionalFields }, { additionalProperties: false })
export const RuleErrors = SignedErrors

export type ApiPublishingRule = Static<typeof PublishingRule>
/** A rule's settings as the API shows them: everything but the id and the timestamps. */
export type RuleSettings = Static<typeof RuleSettings>
/** What POST, PATCH and PUT bodies may carry. */
export type RuleInput = Static<typeof UpdateRuleBody>
