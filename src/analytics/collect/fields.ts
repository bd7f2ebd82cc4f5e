import { EVENT_NAMES, PLAYTHROUGH_PERCENTS, type EventName } from '../model.ts'

/** Validation messages by field, in the `{field: [messages]}` shape of validation errors. */
export class Problems {
  readonly byField: Record<string, string[]> = Object.create(null) as Record<string, string[]>
  first: string | undefined

  add (field: string, message: string): void {
    (this.byField[field] ??= []).push(message)
    this.first ??= message
  }

  get any (): boolean { return this.first !== undefined }
}

export type Json = Record<string, unknown>

export function isObject (value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The times an event may carry; outside them it is a client bug (or a clock far off), not data. */
export interface TimeWindow {
  min: number
  max: number
  /** Says the window in words, for the error message. */
  describe: string
}

const DAY = 86_400_000
/** Players buffer offline for a while, and device clocks drift: a week back, ten minutes ahead. */
export function collectionWindow (now: number): TimeWindow {
  return { min: now - 7 * DAY, max: now + 10 * 60_000, describe: '7 days before to 10 minutes after the server time' }
}
/** Backfills may go back years, never into the future. */
export function importWindow (now: number): TimeWindow {
  return { min: Date.UTC(2000, 0, 1), max: now + 10 * 60_000, describe: '2000-01-01 to 10 minutes after the server time' }
}

export const MAX_ID_LENGTH = 128
export const MAX_TIME_WATCHED_MS = DAY

/** A required or optional identifier: a non-empty string of at most 128 characters. */
export function idField (body: Json, field: string, label: string, problems: Problems, required: boolean): string | undefined {
  const value = body[field]
  if (value === undefined || value === null) {
    if (required) problems.add(label, `${label} is required.`)
    return undefined
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) {
    problems.add(label, `${label} must be a non-empty string of at most ${MAX_ID_LENGTH} characters.`)
    return undefined
  }
  return value
}

export function countryField (body: Json, label: string, problems: Problems): string | undefined {
  const value = body.country
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value)) {
    problems.add(label, `${label} must be a two-letter ISO 3166 country code.`)
    return undefined
  }
  return value.toUpperCase()
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

/**
 * Below this a number cannot be epoch milliseconds of any accepted time (it is March 1973), while
 * epoch seconds stay below it until the year 5138: such a number is a time in seconds.
 */
const SECONDS_BELOW = 1e11

/** An ISO 8601 time with a zone, or integer epoch milliseconds, inside the window. */
export function timeField (value: unknown, label: string, window: TimeWindow, problems: Problems): number | undefined {
  let ms: number
  if (typeof value === 'number' && Number.isSafeInteger(value)) ms = value
  else if (typeof value === 'string' && ISO_TIME.test(value)) ms = Date.parse(value)
  else ms = Number.NaN
  const inWindow = ms >= window.min && ms <= window.max
  if (!inWindow && typeof value === 'number' && value > 0 && value < SECONDS_BELOW) {
    problems.add(label, `${label} must be milliseconds since the Unix epoch; this looks like seconds (in milliseconds: ${Math.round(value * 1000)}).`)
    return undefined
  }
  if (Number.isNaN(ms)) {
    problems.add(label, `${label} must be an ISO 8601 time with a time zone or integer epoch milliseconds.`)
    return undefined
  }
  if (!inWindow) {
    problems.add(label, `${label} is outside the accepted window (${window.describe}).`)
    return undefined
  }
  return ms
}

export interface ValidEvent {
  name: EventName
  time: number
  percent: number | null
  value: number | null
  value2: number | null
  code: string | null
  message: string | null
  fatal: boolean
  country: string | undefined
}

/** Bounds of the viewer-experience fields (docs/analytics.md, "Events"). */
export const QOE_BOUNDS = {
  startupMs: 600_000,
  rebufferMs: 3_600_000,
  positionMs: DAY,
  height: 8640,
  bitrate: 1_000_000_000,
  codeLength: 64,
  messageLength: 256
} as const

/** An integer field within [min, max]; absent is fine unless required. */
function intField (event: Json, field: string, prefix: string, min: number, max: number, unit: string, problems: Problems, required: boolean): number | null {
  const v = event[field]
  if ((v === undefined || v === null) && !required) return null
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    problems.add(`${prefix}${field}`, `${prefix}${field} must be an integer ${unit} from ${min} to ${max}.`)
  }
  return typeof v === 'number' ? v : null
}

type Extra = Pick<ValidEvent, 'value' | 'value2' | 'code' | 'message' | 'fatal'>

/** The fields of the viewer-experience events, each bounded; other names carry none of them. */
function qualityFields (name: unknown, event: Json, prefix: string, problems: Problems): Extra {
  const none: Extra = { value: null, value2: null, code: null, message: null, fatal: false }
  switch (name) {
    case 'video_start':
      return { ...none, value: intField(event, 'startup_ms', prefix, 0, QOE_BOUNDS.startupMs, 'number of milliseconds', problems, false) }
    case 'rebuffer_end':
      return { ...none, value: intField(event, 'duration_ms', prefix, 0, QOE_BOUNDS.rebufferMs, 'number of milliseconds', problems, true) }
    case 'rendition_change':
      return {
        ...none,
        value: intField(event, 'bitrate', prefix, 1, QOE_BOUNDS.bitrate, 'number of bits per second', problems, true),
        value2: intField(event, 'height', prefix, 1, QOE_BOUNDS.height, 'number of pixels', problems, true)
      }
    case 'playhead_update': {
      const position = intField(event, 'position_ms', prefix, 0, QOE_BOUNDS.positionMs, 'number of milliseconds', problems, false)
      const duration = intField(event, 'duration_ms', prefix, 1, QOE_BOUNDS.positionMs, 'number of milliseconds', problems, false)
      if ((position === null) !== (duration === null)) problems.add(`${prefix}position_ms`, `${prefix}position_ms and ${prefix}duration_ms come together or not at all.`)
      return { ...none, value: position, value2: duration }
    }
    case 'error':
      return { ...none, ...errorFields(event, prefix, problems) }
    default:
      return none
  }
}

function errorFields (event: Json, prefix: string, problems: Problems): Pick<Extra, 'code' | 'message' | 'fatal'> {
  const { fatal, code, message } = event
  if (typeof fatal !== 'boolean') problems.add(`${prefix}fatal`, `${prefix}fatal must be true or false.`)
  const codeText = typeof code === 'number' && Number.isSafeInteger(code) ? String(code) : code
  if (typeof codeText !== 'string' || codeText.length === 0 || codeText.length > QOE_BOUNDS.codeLength) {
    problems.add(`${prefix}code`, `${prefix}code must be an integer or a non-empty string of at most ${QOE_BOUNDS.codeLength} characters.`)
  }
  if (message !== undefined && message !== null && (typeof message !== 'string' || message.length > QOE_BOUNDS.messageLength)) {
    problems.add(`${prefix}message`, `${prefix}message must be a string of at most ${QOE_BOUNDS.messageLength} characters.`)
  }
  return { fatal: fatal === true, code: typeof codeText === 'string' ? codeText : null, message: typeof message === 'string' ? message : null }
}

const NAMES = new Set<string>(EVENT_NAMES)

/**
 * One event: `{name, time, percent?, value?, country?}`. Fields that other names carry are ignored,
 * so that newer players can send more than this server counts. `prefix` is how errors name the event.
 */
export function eventFields (event: Json, prefix: string, window: TimeWindow, problems: Problems): ValidEvent | undefined {
  const before = problems.first
  const name = event.name
  if (typeof name !== 'string' || !NAMES.has(name)) {
    problems.add(`${prefix}name`, `${prefix}name must be one of ${EVENT_NAMES.join(', ')}.`)
  }
  const time = timeField(event.time, `${prefix}time`, window, problems)
  let percent: number | null = null
  const extra = qualityFields(name, event, prefix, problems)
  let value = extra.value
  if (name === 'playthrough') {
    if (!PLAYTHROUGH_PERCENTS.includes(event.percent as 25)) problems.add(`${prefix}percent`, `${prefix}percent must be 25, 50, 75 or 100.`)
    else percent = event.percent as number
  }
  if (name === 'time_watched') {
    const v = event.value
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_TIME_WATCHED_MS) {
      problems.add(`${prefix}value`, `${prefix}value must be an integer number of milliseconds from 0 to ${MAX_TIME_WATCHED_MS}.`)
    } else value = v
  }
  const country = countryField(event, `${prefix}country`, problems)
  if (problems.first !== before || time === undefined) return undefined
  return { name: name as EventName, time, percent, ...extra, value, country }
}

/** The host of the page the player ran on: `domain`, else the host of `page_url`, else the caller's Referer. */
export function domainField (body: Json, referer: string | undefined, problems: Problems): string | undefined {
  const domain = body.domain
  if (domain !== undefined && domain !== null) {
    if (typeof domain !== 'string' || !/^[A-Za-z0-9.-]{1,253}$/.test(domain)) {
      problems.add('domain', 'domain must be a host name.')
      return undefined
    }
    return domain.toLowerCase()
  }
  const pageUrl = body.page_url
  if (pageUrl !== undefined && pageUrl !== null) {
    const host = typeof pageUrl === 'string' ? httpHost(pageUrl) : undefined
    if (host === undefined) problems.add('page_url', 'page_url must be an absolute http(s) URL.')
    return host
  }
  return referer === undefined ? undefined : httpHost(referer)
}

function httpHost (text: string): string | undefined {
  if (text.length > 4096) return undefined
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url.hostname.toLowerCase() : undefined
  } catch {
    return undefined
  }
}
