import { Type } from 'typebox'
import { BooleanInput, Empty, HexId, Name, pageOf, PageQuery, SignedErrors, SignedQuery, Timestamp } from '../http/schemas.ts'
import { DAYS, DEVICES, LIST_TYPES } from './publishing-rules-fields.ts'

const Device = Type.Enum(DEVICES)
const Day = Type.Enum(DAYS)
const ListTypeIn = Type.Enum(LIST_TYPES, { description: 'allow or deny (whitelist and blacklist are accepted as synonyms)' })
const ListType = Type.Enum(['allow', 'deny'])
const DateTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'ISO 8601 date-time with a zone, or null' })
const TimeOfDay = Type.Union([Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$' }), Type.Null()], { description: 'HH:MM or HH:MM:SS (UTC), or null' })
const Domain = Type.String({
  maxLength: 253,
  pattern: '^(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$',
  description: 'A host name such as example.com or *.example.com'
})
const Country = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code (or EU)' })

// Output shapes: every field, always present.
const TimeRestrictions = Type.Object({
  type: Type.Enum(['range', 'recurring']),
  start_date: Type.Union([Timestamp, Type.Null()]),
  end_date: Type.Union([Timestamp, Type.Null()]),
  start_time: Type.Union([Type.String(), Type.Null()]),
  end_time: Type.Union([Type.String(), Type.Null()]),
  all_day: Type.Boolean(),
  recurring_days: Type.Array(Day)
})

export const PublishingRule = Type.Object({
  id: HexId,
  name: Type.String(),
  allowed_devices: Type.Array(Device, { description: 'Devices that may play; an empty list allows every device' }),
  time_restrictions: TimeRestrictions,
  domain_restrictions: Type.Object({ type: ListType, domains: Type.Array(Type.String()) }),
  geographic_restrictions: Type.Object({ type: ListType, countries: Type.Array(Type.String()) }),
  created_at: Timestamp,
  updated_at: Timestamp
})

// Input shapes: any subset; nested objects merge field by field on PATCH, lists replace.
const TimeRestrictionsInput = Type.Object({
  type: Type.Optional(Type.Enum(['range', 'recurring'])),
  start_date: Type.Optional(DateTime),
  end_date: Type.Optional(DateTime),
  start_time: Type.Optional(TimeOfDay),
  end_time: Type.Optional(TimeOfDay),
  all_day: Type.Optional(BooleanInput),
  recurring_days: Type.Optional(Type.Array(Day, { maxItems: 7 }))
}, { additionalProperties: false })

const optionalFields = {
  allowed_devices: Type.Optional(Type.Array(Device, { maxItems: DEVICES.length })),
  time_restrictions: Type.Optional(TimeRestrictionsInput),
  domain_restrictions: Type.Optional(Type.Object({
    type: Type.Optional(ListTypeIn),
    domains: Type.Optional(Type.Array(Domain, { maxItems: 1000 }))
  }, { additionalProperties: false })),
  geographic_restrictions: Type.Optional(Type.Object({
    type: Type.Optional(ListTypeIn),
    countries: Type.Optional(Type.Array(Country, { maxItems: 300 }))
  }, { additionalProperties: false }))
}

export const CreateRuleBody = Type.Object({ name: Name, ...optionalFields }, { additionalProperties: false })
export const UpdateRuleBody = Type.Object({ name: Type.Optional(Name), ...optionalFields }, { additionalProperties: false })
export const ReplaceRuleBody = CreateRuleBody

export const RuleParams = Type.Object({ publishing_rule_id: Type.String() })
export const RulesQuery = PageQuery
export const RuleQuery = Type.Object(SignedQuery)
export const RulesPage = pageOf(PublishingRule)
export const RuleErrors = SignedErrors
export { Empty }
