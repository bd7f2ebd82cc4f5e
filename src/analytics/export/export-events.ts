import { mkdtemp, rm, stat } from 'node:fs/promises'
import { createReadStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { BIGINT, DuckDBDataChunk, DuckDBInstance, VARCHAR, type DuckDBType } from '@duckdb/node-api'
import { validationError } from '../../errors/api-error.ts'
import { EVENT_KIND } from '../model.ts'
import { formatTime, parseReportTime } from '../report/segments.ts'
import type { AnalyticsStore, ExportRow } from '../store/store.ts'

export const EXPORT_FORMATS = ['parquet', 'csv', 'ndjson'] as const
export type ExportFormat = typeof EXPORT_FORMATS[number]

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  parquet: 'application/vnd.apache.parquet',
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson'
}

export interface ExportParams { start: number, end: number, format: ExportFormat }

/** The exported columns, in order (docs/analytics.md, "Exports"). */
export const EXPORT_FIELDS = ['time', 'event', 'percent', 'fatal', 'asset_id', 'player_id', 'session_id', 'viewer_id', 'value', 'value2',
  'code', 'message', 'country', 'device_type', 'os', 'browser', 'domain'] as const

/** An exported event: the stored row with its event name (and playthrough percent, error fatality) spelled out. */
export type ExportedEvent = Record<typeof EXPORT_FIELDS[number], string | number | boolean | null>

const NAME_OF_KIND = new Map<number, { event: string, percent: number | null, fatal: boolean | null }>(
  Object.entries(EVENT_KIND).map(([key, kind]) => {
    if (key.startsWith('playthrough_')) return [kind, { event: 'playthrough', percent: Number(key.slice(12)), fatal: null }]
    if (key === 'error_fatal' || key === 'error') return [kind, { event: 'error', percent: null, fatal: key === 'error_fatal' }]
    return [kind, { event: key, percent: null, fatal: null }]
  }))

export function exportedEvent (row: ExportRow): ExportedEvent {
  const name = NAME_OF_KIND.get(row.kind) ?? { event: `kind_${row.kind}`, percent: null, fatal: null }
  return {
    time: new Date(row.time).toISOString(), event: name.event, percent: name.percent, fatal: name.fatal,
    asset_id: row.asset_id, player_id: row.player_id, session_id: row.session_id, viewer_id: row.viewer_id,
    value: row.value, value2: row.value2, code: row.code, message: row.message,
    country: row.country, device_type: row.device_type, os: row.os, browser: row.browser, domain: row.domain
  }
}

function invalid (field: string, message: string): never {
  throw validationError(message, { [field]: [message] })
}

/**
 * Validates `start_date`, `end_date` (exclusive; default tomorrow, UTC) and `format`. No limit on the
 * range: an export reaches as far back as the events are kept.
 */
export function parseExportParams (query: Readonly<Record<string, string | undefined>>, now: number): ExportParams {
  const time = (field: 'start_date' | 'end_date'): number | undefined => {
    const text = query[field]
    if (text === undefined || text === '') return undefined
    return parseReportTime(text) ?? invalid(field, `${field} must be a date (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM:SSZ).`)
  }
  const start = time('start_date') ?? invalid('start_date', 'start_date is required (YYYY-MM-DD).')
  const end = time('end_date') ?? (Math.floor(now / 86_400_000) + 1) * 86_400_000
  if (end <= start) invalid('end_date', 'end_date must be after start_date (it is exclusive).')
  const format = query.format
  if (format === undefined || format === '') invalid('format', `format is required: one of ${EXPORT_FORMATS.join(', ')}.`)
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) invalid('format', `format must be one of ${EXPORT_FORMATS.join(', ')}.`)
  return { start, end, format: format as ExportFormat }
}

/** The file name an export is offered as. */
export function exportFileName (p: ExportParams): string {
  const day = (ms: number): string => formatTime(ms).replaceAll(':', '').replace('T000000Z', '')
  return `analytics-events-${day(p.start)}-${day(p.end)}.${p.format}`
}

const csvCell = (value: string | number | boolean | null): string => {
  if (value === null) return ''
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

async function * textLines (chunks: AsyncIterable<ExportRow[]>, format: 'csv' | 'ndjson'): AsyncGenerator<string> {
  if (format === 'csv') yield EXPORT_FIELDS.join(',') + '\r\n'
  for await (const rows of chunks) {
    let text = ''
    for (const row of rows) {
      const event = exportedEvent(row)
      text += format === 'csv' ? EXPORT_FIELDS.map((f) => csvCell(event[f])).join(',') + '\r\n' : JSON.stringify(event) + '\n'
    }
    yield text
  }
}

const PARQUET_DDL = `CREATE TABLE events (time TIMESTAMP, event VARCHAR, percent BIGINT, fatal BOOLEAN, asset_id VARCHAR, player_id VARCHAR,
  session_id VARCHAR, viewer_id VARCHAR, value BIGINT, value2 BIGINT, code VARCHAR, message VARCHAR, country VARCHAR, device_type VARCHAR,
  os VARCHAR, browser VARCHAR, domain VARCHAR)`
const STAGE_TYPES: DuckDBType[] = [BIGINT, BIGINT, VARCHAR, VARCHAR, VARCHAR, VARCHAR, BIGINT, BIGINT, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR]
const big = (v: number | null): bigint | null => v === null ? null : BigInt(v)

/**
 * Parquet written by DuckDB, from the streamed rows whatever the store (no extension is needed: Parquet
 * is built into DuckDB): the rows are appended to a scratch DuckDB file on disk (its memory bounded, so a
 * large export spills rather than grows), copied to a Parquet file with zstd, and that file is streamed
 * and removed.
 */
async function parquetFile (chunks: AsyncIterable<ExportRow[]>): Promise<{ path: string, cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'reelhouse-export-'))
  const cleanup = async (): Promise<void> => { await rm(dir, { recursive: true, force: true }) }
  try {
    const instance = await DuckDBInstance.create(join(dir, 'export.duckdb'), { memory_limit: '64MB', threads: '1' })
    const connection = await instance.connect()
    try {
      await connection.run(`CREATE TABLE stage (time BIGINT, kind BIGINT, asset_id VARCHAR, player_id VARCHAR, session_id VARCHAR,
        viewer_id VARCHAR, value BIGINT, value2 BIGINT, code VARCHAR, message VARCHAR, country VARCHAR, device_type VARCHAR, os VARCHAR,
        browser VARCHAR, domain VARCHAR)`)
      const appender = await connection.createAppender('stage')
      for await (const rows of chunks) {
        for (let i = 0; i < rows.length; i += 2048) {
          const part = rows.slice(i, i + 2048)
          const chunk = DuckDBDataChunk.create(STAGE_TYPES, part.length)
          chunk.setColumns([
            part.map((r) => BigInt(r.time)), part.map((r) => BigInt(r.kind)), part.map((r) => r.asset_id), part.map((r) => r.player_id),
            part.map((r) => r.session_id), part.map((r) => r.viewer_id), part.map((r) => big(r.value)), part.map((r) => big(r.value2)),
            part.map((r) => r.code), part.map((r) => r.message), part.map((r) => r.country), part.map((r) => r.device_type),
            part.map((r) => r.os), part.map((r) => r.browser), part.map((r) => r.domain)
          ])
          appender.appendDataChunk(chunk)
        }
      }
      appender.flushSync()
      appender.closeSync()
      // Event names from the kinds, as the other formats spell them.
      const names = [...NAME_OF_KIND].map(([kind, n]) => `(${kind}, '${n.event}', ${n.percent ?? 'NULL'}, ${n.fatal ?? 'NULL'})`).join(', ')
      await connection.run(PARQUET_DDL)
      await connection.run(`INSERT INTO events SELECT epoch_ms(s.time), coalesce(k.event, 'kind_' || s.kind), k.percent, k.fatal,
        s.asset_id, s.player_id, s.session_id, s.viewer_id, s.value, s.value2, s.code, s.message, s.country, s.device_type, s.os, s.browser, s.domain
        FROM stage s LEFT JOIN (VALUES ${names}) AS k(kind, event, percent, fatal) ON k.kind = s.kind ORDER BY s.time`)
      const path = join(dir, 'export.parquet')
      await connection.run(`COPY events TO '${path}' (FORMAT PARQUET, COMPRESSION ZSTD)`)
      return { path, cleanup }
    } finally {
      connection.closeSync()
      instance.closeSync()
    }
  } catch (error) {
    await cleanup()
    throw error
  }
}

/** The export's body: CSV and NDJSON stream as the store's cursor is read; Parquet once DuckDB wrote it. */
export async function exportBody (store: AnalyticsStore, accountId: string, p: ExportParams): Promise<{ body: Readable, size?: number }> {
  const chunks = store.exportEvents(accountId, p.start, p.end)
  if (p.format !== 'parquet') return { body: Readable.from(textLines(chunks, p.format)) }
  const file = await parquetFile(chunks)
  const size = (await stat(file.path)).size
  const stream = createReadStream(file.path)
  stream.once('close', () => { void file.cleanup() })
  return { body: stream, size }
}
