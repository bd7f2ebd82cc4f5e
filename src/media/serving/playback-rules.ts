import { ApiError } from '../../errors/index.ts'

/** A time restriction as assets and publishing rules store it (dates absolute, times in `time_zone`). */
export interface TimeWindow {
  type: string
  start_date: string | null
  end_date: string | null
  start_time: string | null
  end_time: string | null
  all_day: boolean
  recurring_days: string[]
  time_zone?: string
}

/** A publishing rule's restrictions as stored. */
export interface RuleRestrictions {
  allowed_devices: string[]
  time_restrictions: TimeWindow
  domain_restrictions: { type: string, domains: string[], allow_no_referrer?: boolean }
  geographic_restrictions: { type: string, countries: string[] }
  /** `signed`: media under the rule needs a playback token (unless the asset says otherwise). */
  playback_policy?: string
}

/** Restrictions compiled once per rule or asset version (kept in the read cache), checked on every request. */
export interface CompiledRules {
  times: CompiledWindow[]
  devices: { families: Set<string>, types: Set<string> } | null
  domains: { allow: boolean, exact: Set<string>, suffixes: string[], allowNoReferrer: boolean } | null
  countries: { allow: boolean, codes: Set<string> } | null
  /** The rule's playback policy is `signed`. */
  signed: boolean
}

interface CompiledWindow {
  start: number
  end: number
  recurring: { days: Set<number>, allDay: boolean, from: number, to: number, zone: Intl.DateTimeFormat } | null
}

/** What a media request says about its viewer. */
export interface Viewer {
  now: number
  userAgent: string | undefined
  origin: string | undefined
  referer: string | undefined
  /** The client address, after TRUST_PROXY. */
  address: string
}

export interface ViewerLookups {
  /** The device type of a user agent as analytics names it (desktop, mobile, tablet, settop, unknown). */
  deviceType: (userAgent: string | undefined) => string
  /** The country of an address; undefined with no GeoIP database, or when the address has none. */
  country: ((address: string) => string | undefined) | undefined
}

export const NO_RULES: CompiledRules = { times: [], devices: null, domains: null, countries: null, signed: false }

const DAY_NUMBER: Record<string, number> = { monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, sunday: 7 }
const WEEKDAY: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 }
const FAMILIES: Array<[string, RegExp]> = [['ipad', /\biPad\b/], ['iphone', /\biPhone\b|\biPod\b/], ['blackberry', /BlackBerry|\bBB10\b/], ['android', /\bAndroid\b/]]
const DEVICE_TYPES = new Set(['desktop', 'mobile', 'tablet', 'settop'])
const zones = new Map<string, Intl.DateTimeFormat>()

function zoneFormat (zone: string): Intl.DateTimeFormat {
  let format = zones.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    zones.set(zone, format)
  }
  return format
}

function seconds (time: string | null): number {
  if (time === null) return 0
  const [h, m, s] = time.split(':').map(Number)
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0)
}

function compileWindow (window: TimeWindow | null | undefined): CompiledWindow | null {
  if (window === null || window === undefined) return null
  const start = window.start_date === null ? -Infinity : Date.parse(window.start_date)
  const end = window.end_date === null ? Infinity : Date.parse(window.end_date)
  const recurring = window.type === 'recurring'
    ? { days: new Set(window.recurring_days.map((day) => DAY_NUMBER[day] ?? 0)), allDay: window.all_day, from: seconds(window.start_time), to: seconds(window.end_time), zone: zoneFormat(window.time_zone ?? 'UTC') }
    : null
  if (recurring === null && start === -Infinity && end === Infinity) return null
  return { start, end, recurring }
}

/**
 * Compiles an asset's own time restrictions and its rule's restrictions (both must allow). A deny list
 * with nothing in it restricts nothing; so does an empty device list.
 */
export function compileRules (assetTimes: TimeWindow | null, rule: RuleRestrictions | null): CompiledRules {
  const times = [compileWindow(assetTimes), compileWindow(rule?.time_restrictions)].filter((w) => w !== null)
  if (rule === null) return times.length === 0 ? NO_RULES : { ...NO_RULES, times }
  const listed = rule.allowed_devices
  const devices = listed.length === 0 ? null : { families: new Set(listed.filter((d) => !DEVICE_TYPES.has(d))), types: new Set(listed.filter((d) => DEVICE_TYPES.has(d))) }
  const d = rule.domain_restrictions
  const domains = d.type === 'deny' && d.domains.length === 0
    ? null
    : {
        allow: d.type === 'allow',
        exact: new Set(d.domains.filter((x) => !x.startsWith('*.'))),
        suffixes: d.domains.filter((x) => x.startsWith('*.')).map((x) => x.slice(1)),
        allowNoReferrer: d.allow_no_referrer === true
      }
  const g = rule.geographic_restrictions
  const countries = g.type === 'deny' && g.countries.length === 0 ? null : { allow: g.type === 'allow', codes: new Set(g.countries) }
  return { times, devices, domains, countries, signed: rule.playback_policy === 'signed' }
}

function inWindow (window: CompiledWindow, now: number): boolean {
  if (now < window.start || now >= window.end) return false
  const r = window.recurring
  if (r === null) return true
  let day = 0
  let time = 0
  for (const part of r.zone.formatToParts(now)) {
    if (part.type === 'weekday') day = WEEKDAY[part.value] ?? 0
    else if (part.type === 'hour') time += Number(part.value) * 3600
    else if (part.type === 'minute') time += Number(part.value) * 60
    else if (part.type === 'second') time += Number(part.value)
  }
  if (r.allDay) return r.days.has(day)
  if (r.from < r.to) return r.days.has(day) && time >= r.from && time < r.to
  // A window across midnight belongs to the day it starts on: its early hours fall on the next day
  // (Sunday night's window runs into Monday, across the week's boundary).
  const previous = day === 1 ? 7 : day - 1
  return (r.days.has(day) && time >= r.from) || (r.days.has(previous) && time < r.to)
}

/** The device family the API family names (iphone, ipad, android, blackberry), if any. */
function familyOf (userAgent: string | undefined): string | undefined {
  if (userAgent === undefined) return undefined
  for (const [family, pattern] of FAMILIES) if (pattern.test(userAgent)) return family
  return undefined
}

function hostOf (value: string | undefined): string | undefined {
  if (value === undefined || value === '' || value === 'null') return undefined
  try {
    const host = new URL(value).hostname.toLowerCase()
    return host === '' ? undefined : host
  } catch {
    return undefined
  }
}

/**
 * Refuses a request the rules do not allow, with the restriction that refused it: time, then device,
 * then site, then country (the order of what costs least to check).
 */
export function enforceRules (rules: CompiledRules, viewer: Viewer, lookups: ViewerLookups): void {
  for (const window of rules.times) {
    if (!inWindow(window, viewer.now)) throw new ApiError('playback_time_refused', 'This asset may not be played at this time.')
  }
  if (rules.devices !== null) {
    const { families, types } = rules.devices
    const family = familyOf(viewer.userAgent)
    const allowed = (family !== undefined && families.has(family)) ||
      (types.size > 0 ? types.has(lookups.deviceType(viewer.userAgent)) : family === undefined)
    if (!allowed) throw new ApiError('playback_device_refused', 'This asset may not be played on this device.')
  }
  if (rules.domains !== null) {
    const domains = rules.domains
    const host = hostOf(viewer.origin) ?? hostOf(viewer.referer)
    if (host === undefined) {
      if (!domains.allowNoReferrer) throw new ApiError('playback_domain_refused', 'This asset may be played only on the sites its publishing rule names; the request names no site (no Origin or Referer).')
    } else {
      const listed = domains.exact.has(host) || domains.suffixes.some((suffix) => host.endsWith(suffix))
      if (listed !== domains.allow) throw new ApiError('playback_domain_refused', `This asset may not be played on ${host}.`)
    }
  }
  if (rules.countries !== null) {
    if (lookups.country === undefined) throw new ApiError('playback_country_refused', 'This asset is restricted by country and no GeoIP database is configured.')
    const country = lookups.country(viewer.address)
    const listed = country !== undefined && rules.countries.codes.has(country)
    if (listed !== rules.countries.allow) throw new ApiError('playback_country_refused', 'This asset may not be played in this country.')
  }
}
