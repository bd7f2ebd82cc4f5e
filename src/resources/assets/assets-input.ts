import type { Static } from 'typebox'
import { ApiError, validationError } from '../../errors/api-error.ts'
import { toBoolean } from '../../http/schemas.ts'
import { dictionary } from '../../lib/dictionary.ts'
import { apiTime, storedTime } from '../../lib/clock.ts'
import { assertPlainText } from '../kit/plain-text.ts'
import { initialStatus, isUploadType, PROCESSING_OWNED_FIELDS, statusChangeAllowed, TYPE_SPECIFIC_FIELDS, type AssetType } from './assets-kinds.ts'
import { checkChunking } from './assets-chunking.ts'
import { canonicalLanguage } from './captions/captions-language.ts'
import type { AssetChanges, AssetRow } from './assets-repository.ts'
import { BACKLOT_DAYS, DAYS, STREAM_URL_KEYS, type ApiTimeRestrictions, type CreateAssetInput, type ReplaceAssetInput, type TimeRestrictionsInput, type UpdateAssetInput } from './assets-schemas.ts'

type AnyInput = CreateAssetInput | UpdateAssetInput | ReplaceAssetInput

/**
 * Turns validated request bodies into asset rows and changes: the rules the schemas cannot say (fields
 * of other types, required type-specific fields, status transitions, time restriction ranges).
 */
export function newAssetRow (input: CreateAssetInput, ids: { id: string, createdBy: string }, now: string): Omit<AssetRow, 'account_id'> {
  const type = input.asset_type
  checkTypeFields(type, input)
  for (const field of requiredFields(type)) {
    if (input[field] === undefined) throw validationError(`Field ${field} is required for ${type} assets.`, { [field]: [`is required for ${type} assets`] })
  }
  const fileSize = input.file_size === undefined ? null : Number(input.file_size)
  const chunkSize = input.chunk_size === undefined ? null : Number(input.chunk_size)
  if (fileSize !== null) checkChunking(fileSize, chunkSize ?? Math.max(1, fileSize))
  return {
    id: ids.id,
    asset_type: type,
    ...wholeBody(input),
    status: nextStatus(initialStatus(type), input.status),
    duration: input.duration ?? 0,
    original_file_name: input.file_name ?? null,
    file_size: fileSize,
    chunk_size: chunkSize,
    youtube_id: input.youtube_id ?? null,
    generate_captions: generateCaptions(type, input.generate_captions),
    media_token: null,
    media_version: null,
    processing_progress: 0,
    processing_error: null,
    processing_warnings: null,
    source_probe: null,
    created_by: ids.createdBy,
    created_at: now,
    updated_at: now
  }
}

/** PATCH: the given fields only; `time_restrictions` and `stream_urls` merge member by member. */
export function patchChanges (before: AssetRow, input: UpdateAssetInput): AssetChanges {
  const type = checkUnchangedType(before, input)
  checkTypeFields(type, input)
  const changes: AssetChanges = {}
  if (input.name !== undefined) changes.name = input.name
  if (input.description !== undefined) changes.description = description(input.description)
  if (input.external_id !== undefined) changes.external_id = input.external_id
  if (input.status !== undefined) changes.status = nextStatus(before.status, input.status)
  if (input.post_processing_status !== undefined) changes.post_processing_status = input.post_processing_status
  if (input.mp4_support !== undefined) changes.mp4_support = input.mp4_support
  if (input.encryption !== undefined) changes.encryption = input.encryption
  if (input.duration !== undefined) changes.duration = input.duration
  if (input.preview_image_url !== undefined) changes.preview_image_url = input.preview_image_url
  if (input.player_id !== undefined) changes.player_id = input.player_id
  if (input.publishing_rule_id !== undefined) changes.publishing_rule_id = input.publishing_rule_id
  if (input.playback_policy !== undefined) changes.playback_policy = input.playback_policy
  if (input.time_restrictions !== undefined) Object.assign(changes, timeRestrictions(input.time_restrictions, before.time_restrictions))
  if (input.stream_urls !== undefined) changes.stream_urls = streamUrls(input.stream_urls, before.stream_urls)
  if (input.youtube_id !== undefined) changes.youtube_id = input.youtube_id
  if (input.click_url !== undefined) changes.click_url = input.click_url
  if (input.hosted_at !== undefined) changes.hosted_at = input.hosted_at
  if (input.closed_captions_url !== undefined) changes.closed_captions_url = input.closed_captions_url
  if (input.vr360type !== undefined) changes.vr360type = input.vr360type
  if (input.tracking_pixel_urls !== undefined) changes.tracking_pixel_urls = jsonOrNull(input.tracking_pixel_urls)
  if (input.disable_seek_for_standalone !== undefined) changes.disable_seek_for_standalone = flag(input.disable_seek_for_standalone)
  if (input.is_live_stream !== undefined) changes.is_live_stream = flag(input.is_live_stream)
  return changes
}

/**
 * PUT: every writable field, those not given back to their defaults. The status stays unless given,
 * and so does the duration of uploaded media, which processing measured.
 */
export function replaceChanges (before: AssetRow, input: ReplaceAssetInput): AssetChanges {
  const type = checkUnchangedType(before, input)
  checkTypeFields(type, input)
  if (type === 'youtube' && input.youtube_id === undefined) {
    throw validationError('Field youtube_id is required for youtube assets.', { youtube_id: ['is required for youtube assets'] })
  }
  return {
    ...wholeBody(input),
    // Processing owns these on uploaded types: a replacement of the other fields keeps them.
    ...(isUploadType(type) ? { preview_image_url: before.preview_image_url, stream_urls: before.stream_urls } : {}),
    status: input.status === undefined ? before.status : nextStatus(before.status, input.status),
    duration: input.duration ?? (isUploadType(type) ? Number(before.duration) : 0),
    youtube_id: type === 'youtube' ? input.youtube_id : null
  }
}

/** The columns a whole body (POST, PUT) sets alike: every field not given at its default. */
function wholeBody (input: CreateAssetInput | ReplaceAssetInput) {
  return {
    name: input.name,
    description: description(input.description) ?? '',
    external_id: input.external_id ?? null,
    post_processing_status: input.post_processing_status ?? 'live',
    mp4_support: input.mp4_support ?? 'none',
    encryption: input.encryption ?? 'none',
    preview_image_url: input.preview_image_url ?? null,
    player_id: input.player_id ?? null,
    publishing_rule_id: input.publishing_rule_id ?? null,
    playback_policy: input.playback_policy ?? null,
    ...timeRestrictions(input.time_restrictions ?? null),
    stream_urls: streamUrls(input.stream_urls ?? null),
    click_url: input.click_url ?? null,
    hosted_at: input.hosted_at ?? null,
    closed_captions_url: input.closed_captions_url ?? null,
    vr360type: input.vr360type ?? null,
    tracking_pixel_urls: jsonOrNull(input.tracking_pixel_urls ?? null),
    disable_seek_for_standalone: input.disable_seek_for_standalone === undefined ? null : flag(input.disable_seek_for_standalone),
    is_live_stream: input.is_live_stream === undefined ? null : flag(input.is_live_stream)
  }
}

function jsonOrNull (value: readonly string[] | null): string | null {
  return value === null ? null : JSON.stringify(value)
}

function flag (value: boolean | 'true' | 'false'): number {
  return toBoolean(value) ? 1 : 0
}

/** Clients may keep a status or switch live ↔ paused; anything else is a 409 naming the current status. */
export function nextStatus (current: string, requested: string | undefined): string {
  if (requested === undefined || statusChangeAllowed(current, requested)) return requested ?? current
  throw new ApiError('asset_status_conflict', `The asset is ${current}; its status cannot change to ${requested} (clients may only switch between live and paused).`)
}

function requiredFields (type: AssetType): Array<'youtube_id' | 'file_name' | 'file_size'> {
  if (type === 'youtube') return ['youtube_id']
  return isUploadType(type) ? ['file_name', 'file_size'] : []
}

function checkUnchangedType (before: AssetRow, input: UpdateAssetInput | ReplaceAssetInput): AssetType {
  if (input.asset_type !== undefined && input.asset_type !== before.asset_type) {
    throw validationError(`Field asset_type cannot change (the asset is a ${before.asset_type}).`, { asset_type: ['cannot change'] })
  }
  return before.asset_type as AssetType
}

function checkTypeFields (type: AssetType, input: AnyInput): void {
  if (isUploadType(type)) {
    const owned = PROCESSING_OWNED_FIELDS.filter((field) => (input as Record<string, unknown>)[field] !== undefined)
    if (owned.length > 0) {
      throw validationError(`Field${owned.length > 1 ? 's' : ''} ${owned.join(', ')} ${owned.length > 1 ? 'are' : 'is'} set by processing on ${type} assets and cannot be sent.`,
        Object.fromEntries(owned.map((field) => [field, [`is set by processing on ${type} assets`]])))
    }
  }
  for (const [field, types] of Object.entries(TYPE_SPECIFIC_FIELDS)) {
    if ((input as Record<string, unknown>)[field] !== undefined && !(types as readonly string[]).includes(type)) {
      throw validationError(`Field ${field} applies only to ${types.join(', ')} assets.`, { [field]: [`applies only to ${types.join(', ')} assets`] })
    }
  }
}

/** Descriptions may span lines; other control characters are refused. */
function description (value: string | undefined): string | undefined {
  if (value !== undefined) assertPlainText('description', value)
  return value
}

type TimeRestrictionsColumns = Pick<AssetRow, 'time_restrictions' | 'restriction_start' | 'restriction_end'>
type TimeRestrictionsValue = ApiTimeRestrictions

/** The defaults of publishing rules' time restrictions, so both resources show one shape. */
const NO_RESTRICTIONS: TimeRestrictionsValue = { type: 'range', start_date: null, end_date: null, start_time: null, end_time: null, all_day: false, recurring_days: [], time_zone: 'UTC' }
const DAY_OF = dictionary<string>(Object.fromEntries([...DAYS.map((d) => [d, d]), ...BACKLOT_DAYS.map((d, i) => [d, DAYS[i]])]))

/**
 * Time restrictions over `stored` (PATCH merges field by field; otherwise over the defaults), normalised
 * to their API form (dates to the second, times HH:MM:SS, days in week order) with their searchable
 * dates. The rules are those of publishing rules.
 */
function timeRestrictions (input: Static<typeof TimeRestrictionsInput> | null, stored: string | null = null): TimeRestrictionsColumns {
  if (input === null) return { time_restrictions: null, restriction_start: null, restriction_end: null }
  const merged = { ...NO_RESTRICTIONS, ...(stored === null ? {} : JSON.parse(stored) as TimeRestrictionsValue), ...input }
  const start = merged.start_date == null ? null : storedTime(Date.parse(merged.start_date))
  const end = merged.end_date == null ? null : storedTime(Date.parse(merged.end_date))
  const clock = (time: string | null): string | null => time === null || time.length === 8 ? time : `${time}:00`
  const value: TimeRestrictionsValue = {
    type: merged.type,
    start_date: apiTime(start),
    end_date: apiTime(end),
    start_time: clock(merged.start_time),
    end_time: clock(merged.end_time),
    all_day: toBoolean(merged.all_day as boolean | 'true' | 'false'),
    recurring_days: DAYS.filter((day) => merged.recurring_days.some((given) => DAY_OF[given] === day)),
    time_zone: canonicalZone(merged.time_zone ?? 'UTC')
  }
  if (value.type === 'range' && start !== null && end !== null && end <= start) {
    throw restrictionError('end_date', 'must be later than time_restrictions.start_date')
  }
  if (value.type === 'recurring' && value.recurring_days.length === 0) throw restrictionError('recurring_days', 'must name at least one day when type is recurring')
  if (value.type === 'recurring' && !value.all_day && (value.start_time === null || value.end_time === null)) {
    throw restrictionError(value.start_time === null ? 'start_time' : 'end_time', 'is required when type is recurring and all_day is false')
  }
  return { time_restrictions: JSON.stringify(value), restriction_start: start, restriction_end: end }
}

/** An IANA zone the runtime knows, in its canonical spelling; any other name is a 400. */
function canonicalZone (zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    throw restrictionError('time_zone', 'must be an IANA time zone name, such as Europe/Lisbon')
  }
}

function restrictionError (member: string, message: string): ApiError {
  const field = `time_restrictions.${member}`
  return validationError(`Field ${field} ${message}.`, { [field]: [message] })
}

/** All six stream URL keys over `stored` (PATCH merges key by key), null where not given. */
function streamUrls (input: Partial<Record<typeof STREAM_URL_KEYS[number], string | null>> | null, stored: string | null = null): string | null {
  if (input === null) return null
  const base = stored === null ? {} : JSON.parse(stored) as Record<string, string | null>
  return JSON.stringify(Object.fromEntries(STREAM_URL_KEYS.map((key) => [key, input[key] !== undefined ? input[key] : base[key] ?? null])))
}

/** `generate_captions`: known language tags, canonical and each once, on a type with uploaded media; stored as JSON. */
function generateCaptions (type: AssetType, languages: readonly string[] | undefined): string | null {
  if (languages === undefined || languages.length === 0) return null
  if (!isUploadType(type)) {
    throw validationError(`Field generate_captions: ${type} assets have no uploaded media to transcribe.`, { generate_captions: ['only video, audio and ad assets have uploaded media'] })
  }
  const canonical = languages.map((tag) => {
    const language = canonicalLanguage(tag)
    if (language === undefined) throw validationError(`Field generate_captions: "${tag}" is not a known BCP 47 language tag (e.g. en, pt-BR).`, { generate_captions: ['holds an unknown language tag'] })
    return language
  })
  return JSON.stringify([...new Set(canonical)])
}
