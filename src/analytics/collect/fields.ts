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
  country: string | undefined
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
  let value: number | null = null
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
  return { name: name as EventName, time, percent, value, country }
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
