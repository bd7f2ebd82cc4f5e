import { randomBytes } from 'node:crypto'

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** 32 lowercase hex characters: the id of every resource except assets. */
export function hexId (): string {
  return randomBytes(16).toString('hex')
}

/** A URL-safe random string of `length` characters (asset embed codes are 32). */
export function urlSafeId (length = 32): string {
  const bytes = randomBytes(length)
  let out = ''
  for (let i = 0; i < length; i++) out += URL_SAFE[bytes[i] & 63]
  return out
}

/** Alphanumeric only (no `-`/`_`), for API key parts and secrets that users paste into shells. */
export function alnumId (length: number): string {
  let out = ''
  while (out.length < length) out += randomBytes(length * 2).toString('base64').replace(/[^A-Za-z0-9]/g, '')
  return out.slice(0, length)
}
