import { validationError, type ApiError } from '../../errors/api-error.ts'
import { apiTime } from '../../lib/clock.ts'
import type { PublishingRulesTable } from '../../db/tables/index.ts'
import { DAYS, DEVICE_FAMILIES, type LIST_TYPES, type RuleInput, type RuleSettings } from './publishing-rules-schemas.ts'

type ListType = RuleSettings['domain_restrictions']['type']
type TimeRestrictions = RuleSettings['time_restrictions']
type TypeInput = typeof LIST_TYPES[number]

/** Defaults of a new rule (and of what a PUT leaves out), as the API family's own create example shows them. */
export const RULE_DEFAULTS: RuleSettings = {
  name: '',
  allowed_devices: [...DEVICE_FAMILIES],
  time_restrictions: { type: 'range', start_date: null, end_date: null, start_time: null, end_time: null, all_day: false, recurring_days: [], time_zone: 'UTC' },
  domain_restrictions: { type: 'deny', domains: [], allow_no_referrer: false },
  geographic_restrictions: { type: 'deny', countries: [] },
  playback_policy: 'public'
}

/** `base` with the input applied: top-level fields replace, nested objects merge field by field; values normalised. */
export function applyInput (base: RuleSettings, input: RuleInput): RuleSettings {
  const time = { ...base.time_restrictions, ...input.time_restrictions }
  const domains = { ...base.domain_restrictions, ...input.domain_restrictions }
  const geo = { ...base.geographic_restrictions, ...input.geographic_restrictions }
  const next: RuleSettings = {
    name: input.name ?? base.name,
    allowed_devices: unique(input.allowed_devices ?? base.allowed_devices),
    time_restrictions: {
      ...time,
      start_date: isoOrNull(time.start_date, 'time_restrictions.start_date'),
      end_date: isoOrNull(time.end_date, 'time_restrictions.end_date'),
      start_time: timeOrNull(time.start_time),
      end_time: timeOrNull(time.end_time),
      all_day: time.all_day === true || time.all_day === 'true',
      recurring_days: DAYS.filter((day) => time.recurring_days.includes(day)),
      time_zone: timeZone(time.time_zone, 'time_restrictions.time_zone')
    },
    domain_restrictions: {
      type: listType(domains.type),
      domains: unique(domains.domains.map((d) => d.toLowerCase())),
      allow_no_referrer: domains.allow_no_referrer === true || domains.allow_no_referrer === 'true'
    },
    geographic_restrictions: { type: listType(geo.type), countries: unique(geo.countries.map((c) => c.toUpperCase())) },
    playback_policy: input.playback_policy ?? base.playback_policy
  }
  assertValid(next.time_restrictions)
  return next
}

function assertValid (time: TimeRestrictions): void {
  if (time.type === 'range' && time.start_date !== null && time.end_date !== null && time.end_date <= time.start_date) {
    throw invalid('time_restrictions.end_date', 'must be later than time_restrictions.start_date')
  }
  if (time.type === 'recurring' && time.recurring_days.length === 0) {
    throw invalid('time_restrictions.recurring_days', 'must name at least one day when type is recurring')
  }
  if (time.type === 'recurring' && !time.all_day && (time.start_time === null || time.end_time === null)) {
    throw invalid(time.start_time === null ? 'time_restrictions.start_time' : 'time_restrictions.end_time', 'is required when type is recurring and all_day is false')
  }
}

function invalid (field: string, message: string): ApiError {
  return validationError(`Field ${field} ${message}.`, { [field]: [message] })
}

/** The columns a rule's settings are stored in. */
export function toColumns (settings: RuleSettings): Omit<PublishingRulesTable, 'id' | 'account_id' | 'created_at' | 'updated_at'> {
  return {
    name: settings.name,
    allowed_devices: JSON.stringify(settings.allowed_devices),
    time_restrictions: JSON.stringify(settings.time_restrictions),
    domain_restrictions: JSON.stringify(settings.domain_restrictions),
    geographic_restrictions: JSON.stringify(settings.geographic_restrictions),
    playback_policy: settings.playback_policy
  }
}

/** Stored settings over the defaults, so fields added by a later release read as their default. */
export function settingsOf (row: PublishingRulesTable): RuleSettings {
  return {
    name: row.name,
    allowed_devices: JSON.parse(row.allowed_devices) as RuleSettings['allowed_devices'],
    time_restrictions: { ...RULE_DEFAULTS.time_restrictions, ...JSON.parse(row.time_restrictions) as Partial<TimeRestrictions> },
    domain_restrictions: { ...RULE_DEFAULTS.domain_restrictions, ...JSON.parse(row.domain_restrictions) as Partial<RuleSettings['domain_restrictions']> },
    geographic_restrictions: { ...RULE_DEFAULTS.geographic_restrictions, ...JSON.parse(row.geographic_restrictions) as Partial<RuleSettings['geographic_restrictions']> },
    playback_policy: row.playback_policy === 'signed' ? 'signed' : 'public'
  }
}

/** An IANA zone the runtime knows, in its canonical spelling; a name it does not know is a 400. */
export function timeZone (value: string, field: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone
  } catch {
    throw invalid(field, 'must be an IANA time zone name, such as Europe/Lisbon')
  }
}

function listType (type: TypeInput): ListType {
  return type === 'whitelist' ? 'allow' : type === 'blacklist' ? 'deny' : type
}

/** ISO 8601 date-times (validated by the schema) as the API shows them, `2026-11-22T10:00:00Z`. */
function isoOrNull (value: string | null, field: string): string | null {
  if (value === null) return null
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) throw invalid(field, 'must be a valid date-time')
  return apiTime(new Date(ms).toISOString())
}

/** `HH:MM` or `HH:MM:SS` (validated by the schema) as `HH:MM:SS`. */
function timeOrNull (value: string | null): string | null {
  return value === null || value.length === 8 ? value : `${value}:00`
}

function unique<T> (values: T[]): T[] {
  return [...new Set(values)]
}
