import { isIP } from 'node:net'
import { ApiError } from '../../errors/api-error.ts'
import { hexId } from '../../lib/ids.ts'
import { eventRow, sessionFields } from '../collect/collect.ts'
import { eventFields, importWindow, isObject, Problems } from '../collect/fields.ts'
import type { GeoLookup } from '../collect/geo.ts'
import type { AnalyticsResources, EventRow } from '../model.ts'
import type { AnalyticsStore } from '../store/store.ts'
import { ndjsonLines, type ByteSource } from './ndjson-lines.ts'

export interface ImportDeps {
  store: AnalyticsStore
  resources: Pick<AnalyticsResources, 'assetExists'>
  geo: GeoLookup | undefined
  now: () => number
}

export interface ImportOptions {
  /** Makes a retried import harmless: an id already imported stores nothing again. Default: a new id. */
  importId?: string
  /**
   * Runs after the last line, before the commit; throwing rolls everything back. The request signature
   * covers the raw body, so a streamed import can only be verified once the stream has ended: hash the
   * bytes as they pass and check the signature here.
   */
  beforeCommit?: () => Promise<void> | void
}

export interface ImportResult {
  import_id: string
  /** Events stored (0 when `import_id` had been imported before). */
  imported: number
  duplicate: boolean
}

export interface LineError { line: number, message: string }

/** At most this many line errors are listed; the message counts them all. */
export const MAX_LISTED_ERRORS = 100
const ROWS_PER_APPEND = 5000

/**
 * One NDJSON line is one event with its session inline:
 * `{"session_id", "asset_id", "player_id"?, "device"?: {id, user_agent}, "domain"?|"page_url"?,
 *   "country"?, "ip"?, "name", "time", "percent"?, "value"?}`. Times may reach back to 2000-01-01.
 */
function lineRow (accountId: string, text: string, geo: GeoLookup | undefined, now: number): { row?: EventRow, errors: string[] } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { errors: ['line is not valid JSON.'] }
  }
  if (!isObject(value)) return { errors: ['line must be a JSON object.'] }
  const problems = new Problems()
  const ip = value.ip
  if (ip !== undefined && (typeof ip !== 'string' || isIP(ip) === 0)) problems.add('ip', 'ip must be an IPv4 or IPv6 address.')
  const session = sessionFields(value, { ip: typeof ip === 'string' && isIP(ip) !== 0 ? ip : undefined }, geo, problems)
  const event = eventFields(value, '', importWindow(now), problems)
  if (problems.any || session === undefined || event === undefined) return { errors: Object.values(problems.byField).flat() }
  return { row: eventRow(accountId, session, event), errors: [] }
}

/**
 * Imports NDJSON events for backfills, streamed. **All or nothing**: every line is checked, rows go
 * into one store transaction as they come, and any invalid line rolls the whole import back (so a
 * corrected file can simply be sent again). Blank lines are skipped. Throws a 400 whose `line_errors`
 * lists `{line, message}` (and `errors` the same keyed `line N`).
 */
export async function importEvents (deps: ImportDeps, accountId: string, source: ByteSource, options: ImportOptions = {}): Promise<ImportResult> {
  if (options.importId !== undefined && !/^[A-Za-z0-9._:-]{1,128}$/.test(options.importId)) {
    const message = "import_id must be 1 to 128 letters, digits, '.', '_', ':' or '-'."
    throw new ApiError('validation_failed', message, { errors: { import_id: [message] } })
  }
  const importId = options.importId ?? hexId()
  const now = deps.now()
  const writer = await deps.store.openImport(now)
  const known = new Map<string, boolean>()
  const lineErrors: LineError[] = []
  let invalidLines = 0
  let lines = 0
  let stored = 0
  let pending: EventRow[] = []
  try {
    for await (const item of ndjsonLines(source)) {
      if ('text' in item && item.text.trim() === '') continue
      lines++
      const result = 'error' in item ? { row: undefined, errors: [item.error] } : lineRow(accountId, item.text, deps.geo, now)
      const row = result.row
      if (row !== undefined) {
        let exists = known.get(row.assetId)
        if (exists === undefined) known.set(row.assetId, exists = await deps.resources.assetExists(accountId, row.assetId))
        if (!exists) result.errors.push(`asset_id '${row.assetId}' does not exist.`)
      }
      if (result.errors.length > 0) {
        invalidLines++
        for (const message of result.errors) if (lineErrors.length < MAX_LISTED_ERRORS) lineErrors.push({ line: item.line, message })
        pending = []
        continue
      }
      // Once a line failed nothing will be stored: keep checking, stop writing.
      if (invalidLines > 0 || row === undefined) continue
      pending.push(row)
      if (pending.length >= ROWS_PER_APPEND) { await writer.append(pending); stored += pending.length; pending = [] }
    }
    if (invalidLines > 0) {
      const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>
      for (const e of lineErrors) (errors[`line ${e.line}`] ??= []).push(e.message)
      throw new ApiError('validation_failed', `${invalidLines} of ${lines} lines are invalid; nothing was imported.`, { errors, line_errors: lineErrors })
    }
    if (lines === 0) throw new ApiError('validation_failed', 'The import holds no events.', { errors: { body: ['The import holds no events.'] } })
    await writer.append(pending)
    stored += pending.length
    await options.beforeCommit?.()
  } catch (error) {
    await writer.abort()
    throw error
  }
  const fresh = await writer.commit(importId)
  return { import_id: importId, imported: fresh ? stored : 0, duplicate: !fresh }
}
