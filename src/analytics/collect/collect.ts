import { ApiError, validationError } from '../../errors/api-error.ts'
import { UNKNOWN, type AnalyticsResources, type EventRow } from '../model.ts'
import {
  collectionWindow, countryField, domainField, eventFields, idField, isObject, Problems,
  type Json, type TimeWindow, type ValidEvent
} from './fields.ts'
import type { GeoLookup } from './geo.ts'
import { deviceInfo } from './user-agent.ts'

export const MAX_BATCH_EVENTS = 1000
export const MAX_BATCH_BYTES = 1024 * 1024

/** What the HTTP layer knows about the request beyond its body. */
export interface CollectContext {
  /** The `User-Agent` header; `device.user_agent` in the body wins (SDKs on TVs report their own). */
  userAgent?: string
  /** The client address, for the GeoIP lookup. */
  ip?: string
  /** The `Referer` (or `Origin`) header: the page's host when the body names none. */
  referer?: string
  /** Size of the raw body when `body` is already parsed (the HTTP layer's body limit normally enforces it). */
  bodyBytes?: number
}

export interface CollectDeps {
  resources: Pick<AnalyticsResources, 'resolveAccount' | 'assetExists'>
  geo: GeoLookup | undefined
  now: () => number
}

/** The per-session part of a batch (or of an import line): copied onto every event row. */
export interface SessionFields {
  assetId: string
  playerId: string
  sessionId: string
  viewerId: string
  deviceType: string
  os: string
  browser: string
  domain: string
  /** GeoIP country, else the body's `country`; an event's own country comes between the two. */
  geoCountry: string | undefined
  bodyCountry: string | undefined
}

/** Validates `session_id`, `asset_id`, `player_id`, `device`, `domain`/`page_url`, `country`. */
export function sessionFields (body: Json, context: CollectContext, geo: GeoLookup | undefined, problems: Problems): SessionFields | undefined {
  const before = problems.first
  const sessionId = idField(body, 'session_id', 'session_id', problems, true)
  const assetId = idField(body, 'asset_id', 'asset_id', problems, true)
  const playerId = idField(body, 'player_id', 'player_id', problems, false)
  let deviceId: string | undefined
  let userAgent = context.userAgent
  const device = body.device
  if (device !== undefined && device !== null) {
    if (!isObject(device)) problems.add('device', 'device must be an object.')
    else {
      deviceId = idField(device, 'id', 'device.id', problems, false)
      const ua = device.user_agent
      if (ua !== undefined && ua !== null) {
        if (typeof ua !== 'string' || ua.length > 1024) problems.add('device.user_agent', 'device.user_agent must be a string of at most 1024 characters.')
        else userAgent = ua
      }
    }
  }
  const domain = domainField(body, context.referer, problems)
  const bodyCountry = countryField(body, 'country', problems)
  if (problems.first !== before || sessionId === undefined || assetId === undefined) return undefined
  const info = deviceInfo(userAgent)
  return {
    assetId,
    playerId: playerId ?? UNKNOWN.playerId,
    sessionId,
    viewerId: deviceId !== undefined ? `d:${deviceId}` : `s:${sessionId}`,
    ...info,
    domain: domain ?? UNKNOWN.domain,
    geoCountry: context.ip !== undefined && geo !== undefined ? geo.country(context.ip) : undefined,
    bodyCountry
  }
}

export function eventRow (accountId: string, session: SessionFields, event: ValidEvent): EventRow {
  return {
    accountId,
    assetId: session.assetId,
    playerId: session.playerId,
    sessionId: session.sessionId,
    viewerId: session.viewerId,
    name: event.name,
    time: event.time,
    percent: event.percent,
    value: event.value,
    ...(event.value2 !== null ? { value2: event.value2 } : {}),
    ...(event.name === 'error' ? { code: event.code, message: event.message, fatal: event.fatal } : {}),
    country: session.geoCountry ?? event.country ?? session.bodyCountry ?? UNKNOWN.country,
    deviceType: session.deviceType,
    os: session.os,
    browser: session.browser,
    domain: session.domain
  }
}

/** Parses a raw body (Buffer or string) or takes an already parsed one, enforcing the 1 MiB limit. */
function parseBody (body: unknown, context: CollectContext): unknown {
  const raw = typeof body === 'string' ? Buffer.from(body) : body
  const size = Buffer.isBuffer(raw) ? raw.length : context.bodyBytes ?? 0
  if (size > MAX_BATCH_BYTES) throw new ApiError('body_too_large', `The batch is larger than 1 MiB (${MAX_BATCH_BYTES} bytes).`)
  if (!Buffer.isBuffer(raw)) return body
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    throw new ApiError('body_malformed', 'The body is not valid JSON.')
  }
}

function events (body: Json, window: TimeWindow, problems: Problems): ValidEvent[] {
  const list = body.events
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_BATCH_EVENTS) {
    problems.add('events', `events must be an array of 1 to ${MAX_BATCH_EVENTS} events.`)
    return []
  }
  const valid: ValidEvent[] = []
  list.forEach((event: unknown, i) => {
    if (!isObject(event)) problems.add(`events[${i}]`, `events[${i}] must be an object.`)
    else {
      const ok = eventFields(event, `events[${i}].`, window, problems)
      if (ok !== undefined) valid.push(ok)
    }
  })
  return valid
}

/**
 * Validates a collection batch (docs/analytics.md, "Collection") and turns it into event rows; throws ApiError on any
 * problem, so a batch is accepted whole or not at all. Unknown fields are ignored: players of many
 * versions post here and must not break on a field this server does not read.
 */
export async function validateBatch (body: unknown, context: CollectContext, deps: CollectDeps): Promise<EventRow[]> {
  const parsed = parseBody(body, context)
  if (!isObject(parsed)) throw new ApiError('bad_request', 'The body must be a JSON object.')
  const problems = new Problems()
  const accountCode = idField(parsed, 'account_code', 'account_code', problems, true)
  const session = sessionFields(parsed, context, deps.geo, problems)
  const valid = events(parsed, collectionWindow(deps.now()), problems)
  if (problems.any || accountCode === undefined || session === undefined) throw validationError(problems.first ?? 'Invalid batch.', problems.byField)

  const account = await deps.resources.resolveAccount(accountCode)
  if (account === undefined) throw validationError(`Unknown account_code '${accountCode}'.`, { account_code: [`Unknown account_code '${accountCode}'.`] })
  if (!await deps.resources.assetExists(account.accountId, session.assetId)) {
    throw validationError(`Unknown asset_id '${session.assetId}'.`, { asset_id: [`Unknown asset_id '${session.assetId}'.`] })
  }
  return valid.map((event) => eventRow(account.accountId, session, event))
}
