import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import type { Command } from 'commander'
import { signedPath } from '../signing/index.ts'
import { CliError } from './cli-error.ts'
import { connect, withServerOptions, type ServerFlags } from './connection.ts'

interface ExportFlags extends ServerFlags { startDate: string, endDate?: string, format: string, output?: string }

const MiB = 1024 * 1024
const FORMATS = ['parquet', 'csv', 'ndjson']

/**
 * `reelhouse export`: the account's raw analytics events (`GET /v2/analytics/exports`) written to a
 * file, with a progress bar on stderr. The file appears under its name only once complete.
 */
export function registerExportCommand (program: Command): void {
  withServerOptions(program.command('export')
    .description('write the account\'s raw analytics events to a file (administrators); prints the file\'s name')
    .requiredOption('--start-date <date>', 'YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC)')
    .option('--end-date <date>', 'exclusive (default: tomorrow, UTC)')
    .option('--format <format>', 'parquet, csv or ndjson', 'parquet')
    .option('-o, --output <file>', 'where to write (default: the name the server gives)'))
    .addHelpText('after', '\nExamples:\n  reelhouse export --start-date 2026-11-01 --end-date 2026-12-01\n  reelhouse export --start-date 2026-11-22 --format csv -o today.csv')
    .action(async (flags: ExportFlags) => { await exportEvents(flags) })
}

async function exportEvents (flags: ExportFlags): Promise<void> {
  if (!FORMATS.includes(flags.format)) throw new CliError(`--format must be parquet, csv or ndjson, not ${flags.format}.`)
  const { address, credentials, fetch } = connect(flags)
  const params: Record<string, string> = { start_date: flags.startDate, format: flags.format }
  if (flags.endDate !== undefined) params.end_date = flags.endDate
  const path = signedPath({ ...credentials, method: 'GET', path: '/v2/analytics/exports', params, expires: Math.floor(Date.now() / 1000) + 3600 })
  const response = await fetch(address.url + path)
  if (!response.ok || response.body === null) {
    const text = await response.text()
    let message = text
    try { message = (JSON.parse(text) as { message?: string }).message ?? text } catch {}
    throw new CliError(`The export failed (HTTP ${response.status}): ${message}`)
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `analytics-events.${flags.format}`
  const target = resolve(flags.output ?? named)
  const partial = `${target}.partial`
  const length = response.headers.get('content-length')
  const bar = progressBar(length === null ? undefined : Number(length))
  let received = 0
  const counter = new Transform({
    transform (chunk: Buffer, _encoding, done) { received += chunk.length; bar(received, false); done(null, chunk) }
  })
  try {
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream), counter, createWriteStream(partial))
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
  bar(received, true)
  await rename(partial, target)
  console.log(target)
}

/**
 * Progress on stderr: a bar redrawn in place on a terminal when the size is known (Parquet), the bytes
 * so far otherwise; in a log, one line per tenth (or per 10 MiB without a size) and one at the end.
 */
function progressBar (total: number | undefined): (received: number, last: boolean) => void {
  const started = Date.now()
  const tty = process.stderr.isTTY
  let lastStep = -1
  return (received, last) => {
    const seconds = Math.max(0.001, (Date.now() - started) / 1000)
    const text = `${(received / MiB).toFixed(1)}${total === undefined ? '' : `/${(total / MiB).toFixed(1)}`} MiB at ${(received / MiB / seconds).toFixed(1)} MiB/s`
    const fraction = total === undefined || total === 0 ? undefined : Math.min(1, received / total)
    if (tty) {
      const width = 30
      const filled = Math.round((fraction ?? 0) * width)
      const shown = fraction === undefined ? `Received ${text}` : `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${text}`
      process.stderr.write(`\r${shown}${last ? '\n' : ''}`)
      return
    }
    if (!last && fraction === 1) return
    const step = fraction === undefined ? Math.floor(received / (10 * MiB)) : Math.floor(fraction * 10)
    if (step === lastStep && !last) return
    lastStep = step
    process.stderr.write(`${last ? 'Exported' : 'Received'} ${fraction === undefined ? '' : `${step * 10}% `}(${text})\n`)
  }
}
