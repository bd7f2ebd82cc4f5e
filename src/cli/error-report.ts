import { APIConnectionError, APIError } from 'reelhouse/client'
import { ConfigError } from '../config/index.ts'
import { DataDirLockedError } from '../server/data-dir-lock.ts'
import { CliError } from './cli-error.ts'
import { lastRequest } from './connection.ts'
import { options } from './output.ts'

/** Members of a problem document printed by name, or not at all (the rest are printed as they come). */
const SHOWN = new Set(['message', 'detail', 'code', 'request_id', 'status', 'type', 'title', 'errors', 'string_to_sign'])

/**
 * What a failed command prints on stderr, and its exit code. An API error keeps what the API said: its
 * message, `detail`, field errors, any other member, and the request id to quote; `--verbose` adds the
 * request line and the string the server signed (docs/cli.md, "Output").
 */
export function errorReport (error: unknown): { text: string, exitCode: number } {
  // These messages are written for the operator whole; anything else gets the command's name in front.
  if (error instanceof ConfigError || error instanceof DataDirLockedError) return { text: error.message, exitCode: 1 }
  if (error instanceof CliError) return { text: `reelhouse: ${error.message}`, exitCode: error.exitCode }
  if (error instanceof APIError) return { text: apiErrorLines(error).join('\n'), exitCode: 1 }
  if (error instanceof APIConnectionError) {
    const lines = [`reelhouse: ${error.message}`]
    if (lastRequest.address !== undefined) lines.push(`  the address came from ${lastRequest.address.source}; give another with --base-url or REELHOUSE_URL`)
    if (options.verbose && lastRequest.line !== undefined) lines.push(`  request: ${lastRequest.line}`)
    return { text: lines.join('\n'), exitCode: 1 }
  }
  return { text: `reelhouse: ${(error as Error).message}`, exitCode: 1 }
}

function apiErrorLines (error: APIError): string[] {
  const body = error.body ?? { message: error.message }
  const lines = [`reelhouse: ${body.message} (${error.status}${error.code === undefined ? '' : ` ${error.code}`})`]
  if (typeof body.detail === 'string' && body.detail !== body.message) lines.push(`  detail: ${body.detail}`)
  for (const [field, messages] of Object.entries(error.errors ?? {})) lines.push(`  ${field}: ${messages.join('; ')}`)
  for (const [member, value] of Object.entries(body)) {
    if (!SHOWN.has(member)) lines.push(`  ${member}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
  }
  if (error.code === 'request_expired') {
    const serverTime = error.headers.get('date')
    lines.push(`  this machine's clock: ${new Date().toUTCString()}${serverTime === null ? '' : `; the server's: ${serverTime}`}`)
  }
  if (error.requestId !== undefined) lines.push(`  request id: ${error.requestId}`)
  const signed = body.string_to_sign
  if (options.verbose) {
    if (lastRequest.line !== undefined) lines.push(`  request: ${lastRequest.line}`)
    if (signed !== undefined) lines.push(`  string the server signed: ${JSON.stringify(signed)}`)
  } else if (signed !== undefined || lastRequest.line !== undefined) {
    lines.push(`  (--verbose shows the request${signed === undefined ? '' : ' and the string the server signed'})`)
  }
  return lines
}
