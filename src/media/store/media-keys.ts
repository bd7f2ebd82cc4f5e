import { randomBytes } from 'node:crypto'
import { InvalidMediaKeyError } from './store-errors.ts'

/**
 * Keys are `/`-separated relative paths of segments made of letters, digits, `.`, `_` and `-`, never
 * starting with `.`. That keeps every key a plain path under the file store's root (no `..`, no absolute
 * path, no hidden file, no control character) and a URL-safe S3 key that needs no escaping.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/
export const MAX_KEY_LENGTH = 1024
/** File systems refuse longer names (ENAMETOOLONG); S3 would take them, but the stores must agree. */
const MAX_SEGMENT_LENGTH = 255

function reasonAgainst (key: string): string | undefined {
  if (typeof key !== 'string') return 'a key is a string'
  if (key === '') return 'a key is not empty'
  if (key.length > MAX_KEY_LENGTH) return `a key has at most ${MAX_KEY_LENGTH} characters`
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'control characters are not allowed'
  if (key.startsWith('/')) return 'a key is relative (no leading "/")'
  if (key.endsWith('/')) return 'a key does not end with "/"'
  for (const segment of key.split('/')) {
    if (segment === '') return 'empty path segments ("//") are not allowed'
    if (segment === '.' || segment === '..') return '"." and ".." segments are not allowed'
    if (!SEGMENT.test(segment)) return 'segments use only A-Z a-z 0-9 . _ - and do not start with "."'
    if (segment.length > MAX_SEGMENT_LENGTH) return `a segment has at most ${MAX_SEGMENT_LENGTH} characters`
  }
  return undefined
}

/** Returns the key when it follows the key rules, else throws InvalidMediaKeyError. */
export function checkKey (key: string): string {
  const reason = reasonAgainst(key)
  if (reason !== undefined) throw new InvalidMediaKeyError(key, reason)
  return key
}

/** A listing or deletion prefix: '' (everything; listing only) or a valid key followed by '/'. */
export function checkPrefix (prefix: string, { allowEmpty }: { allowEmpty: boolean }): string {
  if (prefix === '' && allowEmpty) return prefix
  if (typeof prefix !== 'string' || !prefix.endsWith('/')) {
    throw new InvalidMediaKeyError(prefix, allowEmpty ? 'a prefix is "" or ends with "/"' : 'a prefix is not empty and ends with "/"')
  }
  const reason = reasonAgainst(prefix.slice(0, -1))
  if (reason !== undefined) throw new InvalidMediaKeyError(prefix, reason)
  return prefix
}

/** True when `key` follows the key rules. */
export function isValidKey (key: string): boolean {
  return reasonAgainst(key) === undefined
}

// The layout of an asset's media (docs/media-store.md, "What is stored where"). Account first, so one
// deletePrefix removes an asset's or an account's media; a random media version makes served URLs
// unguessable and lets a replacement be processed beside the media that is still live.

function segment (name: string, value: string): string {
  if (!SEGMENT.test(value) || value.length > MAX_SEGMENT_LENGTH) throw new InvalidMediaKeyError(value, `${name} must be one key segment`)
  return value
}

/** Everything of one asset: `accounts/<accountId>/assets/<assetId>/`. */
export function assetPrefix (accountId: string, assetId: string): string {
  return `accounts/${segment('accountId', accountId)}/assets/${segment('assetId', assetId)}/`
}

/** The chunks of one upload: `…/uploads/<uploadId>/`. */
export function uploadPrefix (accountId: string, assetId: string, uploadId: string): string {
  return `${assetPrefix(accountId, assetId)}uploads/${segment('uploadId', uploadId)}/`
}

/** Where a direct upload's tus parts wait until its completion assembles them. */
export function directUploadPrefix (accountId: string, directUploadId: string): string {
  return `accounts/${segment('accountId', accountId)}/direct_uploads/${segment('directUploadId', directUploadId)}/`
}

/** Part `index` (0-based) of an object assembled under `prefix`, stored as an object of its own; zero-padded so a listing comes back in part order. */
export function partKey (prefix: string, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0 || index > 999_999) {
    throw new InvalidMediaKeyError(String(index), 'a part index is an integer from 0 to 999999')
  }
  return `${checkPrefix(prefix, { allowEmpty: false })}chunk-${String(index).padStart(6, '0')}`
}

/** One processed version of an asset's media (original, playlists, segments, preview): `…/media/<version>/`. */
export function mediaPrefix (accountId: string, assetId: string, version: string): string {
  return `${assetPrefix(accountId, assetId)}media/${segment('version', version)}/`
}

/** A fresh media version: 128 random bits, base64url, so URLs that contain it cannot be guessed. */
export function newMediaVersion (): string {
  return randomBytes(16).toString('base64url')
}
