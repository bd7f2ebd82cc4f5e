import { createHmac, timingSafeEqual } from 'node:crypto'
import { ApiError } from '../../errors/index.ts'

/**
 * Signed URLs of originals (docs/media.md, "Originals"). An uploaded original is private: the media token
 * alone never opens it. `stream_urls.source_file` and `source_file_info.source_file_url` carry
 * `expires` and `signature`, an HMAC of the token and the expiry with a key of its own (derived from
 * the master key). The expiry is the start of the UTC day three days ahead, so it is 48 to 72 hours
 * away and an asset's JSON stays the same for a whole day (a cached answer stays right).
 */

const DAY_SECONDS = 86_400
/** Days ahead of today's start: the URL lives between two and three days. */
const DAYS_AHEAD = 3
const SOURCE_PATH = /\/media\/([A-Za-z0-9_-]{16,64})\/source$/

export interface OriginalUrls {
  /** `url` (an original's unsigned URL) signed to expire 48–72 h after `nowMs`; other URLs unchanged. */
  sign: (url: string, nowMs: number) => string
  /** Refuses a request for the original of `token` whose `expires` and `signature` are missing, wrong or past. */
  verify: (token: string, query: { expires?: string, signature?: string }, nowMs: number) => void
}

export function originalUrls (key: Buffer): OriginalUrls {
  const mac = (token: string, expires: string): Buffer => createHmac('sha256', key).update(`original\n${token}\n${expires}`).digest()
  return {
    sign (url, nowMs) {
      const token = SOURCE_PATH.exec(url)?.[1]
      if (token === undefined) return url
      const expires = String((Math.floor(nowMs / 1000 / DAY_SECONDS) + DAYS_AHEAD) * DAY_SECONDS)
      return `${url}?expires=${expires}&signature=${mac(token, expires).toString('base64url')}`
    },
    verify (token, { expires, signature }, nowMs) {
      if (expires === undefined || signature === undefined) {
        throw new ApiError('media_url_invalid', 'An original opens only with its signed URL (`stream_urls.source_file` or `source_file_info.source_file_url` of the asset), not with the media token alone.')
      }
      const given = Buffer.from(signature, 'base64url')
      const expected = mac(token, expires)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ApiError('media_url_invalid', 'The signature does not match this original\'s URL: use the URL exactly as the asset gives it.')
      }
      if (Number(expires) * 1000 <= nowMs) {
        throw new ApiError('media_url_expired', 'This signed URL of the original has expired: read the asset again for a fresh one.')
      }
    }
  }
}
