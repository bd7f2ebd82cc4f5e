import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { ApiError } from '../errors/api-error.ts'

export type KeyValue = string | number | null

/** The refusal of every page token, whoever issued it: one code, one wording for each reason. */
export function invalidPageToken (reason: 'forged' | 'other query'): ApiError {
  return new ApiError('page_token_invalid', reason === 'forged'
    ? 'Parameter page_token is not a valid page token.'
    : 'Parameter page_token belongs to a different query.')
}

/**
 * Opaque, URL-safe, tamper-proof page tokens: `<payload>.<mac>`, both base64url. The payload holds the
 * position (a keyset position for lists, a row offset for reports) and a digest of the query the token
 * belongs to, so a token is refused when forged or replayed against another query (docs/api.md, "Paging").
 * Each kind of list (`forKind`) signs with a key of its own, so one kind's token never passes for another's.
 */
export class PageTokens {
  private readonly key: Buffer

  constructor (key: Buffer | string) {
    this.key = typeof key === 'string' ? Buffer.from(key) : key
    if (this.key.length < 16) throw new Error('a page token key must be at least 16 bytes')
  }

  /** Tokens of another kind (e.g. `analytics report`), under a key derived from this one. */
  forKind (kind: string): PageTokens {
    return new PageTokens(createHmac('sha256', this.key).update(`page tokens of kind ${kind}`).digest())
  }

  encode (position: KeyValue[], binding: string): string {
    const payload = Buffer.from(JSON.stringify([position, binding]), 'utf8').toString('base64url')
    return `${payload}.${this.mac(payload)}`
  }

  decode (token: string, binding: string): KeyValue[] {
    const [payload, mac, extra] = token.split('.')
    if (payload === undefined || mac === undefined || extra !== undefined || !this.macMatches(payload, mac)) throw invalidPageToken('forged')
    const [position, boundTo] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [KeyValue[], string]
    if (boundTo !== binding) throw invalidPageToken('other query')
    return position
  }

  private mac (payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, 16).toString('base64url')
  }

  private macMatches (payload: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(payload))
    const received = Buffer.from(mac)
    return received.length === expected.length && timingSafeEqual(expected, received)
  }
}

/** The digest a token is bound to: the path and the filter parameters, order-independent. */
export function queryBinding (path: string, filters: Array<[string, string]>): string {
  const canonical = [...filters].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join('&')
  return createHash('sha256').update(`${path}?${canonical}`).digest().subarray(0, 9).toString('base64url')
}
