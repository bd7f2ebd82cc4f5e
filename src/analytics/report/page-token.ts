import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { ApiError } from '../../errors/api-error.ts'

/**
 * Signs and checks report page tokens. A token holds the row offset and a fingerprint of the report's
 * parameters, under an HMAC: a forged token, or one used with another report, is a 400 (product.md §5).
 * Reports are aggregates computed whole on every request, so an offset costs nothing extra to honour.
 */
export interface PageTokens {
  sign: (offset: number, fingerprint: string) => string
  /** The offset the token carries; throws ApiError `page_token_invalid`. */
  verify: (token: string, fingerprint: string) => number
}

export function fingerprintOf (parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16)
}

function invalid (message: string): never {
  throw new ApiError('page_token_invalid', message)
}

/** Page tokens signed with an HMAC-SHA256 key (at least 16 bytes; give the server's master key or a random one). */
export function hmacPageTokens (key: string | Buffer): PageTokens {
  const secret = typeof key === 'string' ? Buffer.from(key) : key
  if (secret.length < 16) throw new Error('the page token key must be at least 16 bytes')
  const mac = (body: string): Buffer => createHmac('sha256', secret).update(body).digest().subarray(0, 16)
  return {
    sign (offset, fingerprint) {
      const body = Buffer.from(`${offset}.${fingerprint}`).toString('base64url')
      return `${body}.${mac(body).toString('base64url')}`
    },
    verify (token, fingerprint) {
      const [body, signature, extra] = token.split('.')
      if (extra !== undefined || body === undefined || signature === undefined || body === '') invalid('page_token is not valid.')
      const given = Buffer.from(signature, 'base64url')
      const expected = mac(body)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) invalid('page_token is not valid.')
      const [offsetText, tokenFingerprint] = Buffer.from(body, 'base64url').toString().split('.')
      if (tokenFingerprint !== fingerprint) invalid('page_token belongs to a different report.')
      const offset = Number(offsetText)
      if (!Number.isSafeInteger(offset) || offset < 0) invalid('page_token is not valid.')
      return offset
    }
  }
}
