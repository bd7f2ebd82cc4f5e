import { createHash } from 'node:crypto'
import type { QueryPairs } from '../../signing/index.ts'

/** Signing parameters change with every attempt of the same request, so they are not part of it. */
const SIGNING = new Set(['api_key', 'expires', 'signature'])

/**
 * What makes two requests "the same request" for an `Idempotency-Key`: the method, the path as sent,
 * the query without its signing parameters (in any order) and the body bytes. SHA-256, hex.
 */
export function requestFingerprint (method: string, url: string, pairs: QueryPairs, body: Buffer | undefined): string {
  const path = url.split('?', 1)[0] as string
  const query = pairs.filter(([key]) => !SIGNING.has(key)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return createHash('sha256')
    .update(JSON.stringify([method.toUpperCase(), path, query]))
    .update('\n')
    .update(body ?? Buffer.alloc(0))
    .digest('hex')
}
