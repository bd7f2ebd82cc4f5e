import type { IncomingHttpHeaders } from 'node:http'

/** What a conditional request is compared with: the answer's validators. */
export interface Validators {
  etag: string | undefined
  lastModified: Date | undefined
}

/**
 * Whether a GET or HEAD is answered 304 (RFC 9110 §13.2.2): `If-None-Match` when present (weak
 * comparison, a list or `*`), else `If-Modified-Since` against Last-Modified, to the second.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.2
 */
export function notModified (headers: IncomingHttpHeaders, validators: Validators): boolean {
  const ifNoneMatch = headers['if-none-match']
  if (ifNoneMatch !== undefined) return validators.etag !== undefined && matchesAny(ifNoneMatch, validators.etag, false)
  const since = headers['if-modified-since']
  if (since === undefined || validators.lastModified === undefined) return false
  const date = Date.parse(since)
  return !Number.isNaN(date) && Math.floor(validators.lastModified.getTime() / 1000) * 1000 <= date
}

/**
 * Whether a `Range` still applies under `If-Range` (RFC 9110 §13.1.5): with no `If-Range`, yes; with an
 * entity tag, only when it is strongly the current one; with a date, only when it is exactly Last-Modified.
 * When it does not, the whole file is sent.
 */
export function rangeStillApplies (headers: IncomingHttpHeaders, validators: Validators): boolean {
  const header = headers['if-range']
  if (header === undefined) return true
  const ifRange = Array.isArray(header) ? header.join(',') : header
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return validators.etag !== undefined && matchesAny(ifRange, validators.etag, true)
  const date = Date.parse(ifRange)
  return validators.lastModified !== undefined && !Number.isNaN(date) && Math.floor(validators.lastModified.getTime() / 1000) * 1000 === date
}

function matchesAny (header: string, etag: string, strong: boolean): boolean {
  if (header.trim() === '*') return true
  const current = strong ? etag : opaque(etag)
  for (const part of header.split(',')) {
    const candidate = part.trim()
    if (strong ? candidate === current && !candidate.startsWith('W/') : opaque(candidate) === current) return true
  }
  return false
}

function opaque (etag: string): string {
  return etag.startsWith('W/') ? etag.slice(2) : etag
}
