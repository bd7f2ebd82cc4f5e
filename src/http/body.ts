import { ApiError } from '../errors/api-error.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Parses the raw body as UTF-8 JSON. An empty body, `""` and `{}` all mean "no fields". Invalid UTF-8,
 * trailing bytes after the JSON value and control characters outside strings are rejected here,
 * before any write (the signing scheme is open to length extension: docs/api.md, "Signing").
 */
export function parseJsonBody (raw: Buffer | undefined): unknown {
  if (raw === undefined || raw.length === 0) return {}
  let text: string
  try {
    text = utf8.decode(raw)
  } catch {
    throw new ApiError('body_malformed', 'Request body must be UTF-8 encoded JSON.')
  }
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ApiError('body_malformed', 'Request body is not valid JSON.')
  }
  return value === '' ? {} : value
}
