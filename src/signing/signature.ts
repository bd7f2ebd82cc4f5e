import { createHash, timingSafeEqual } from 'node:crypto'
import { canonicalParameters, methodSignsBody, type QueryPairs } from './canonical.ts'

export interface SignatureInput {
  secret: string
  method: string
  /** The path exactly as in the request line (still percent-encoded), without the query. */
  path: string
  pairs: QueryPairs
  /** Raw body bytes; ignored for GET, HEAD and DELETE. */
  body?: Buffer | string
}

/**
 * interface-spec §5.1: SHA-256 over secret + METHOD + path + sorted params + body, Base64, first 43
 * characters, trailing `=` removed. Not URL-encoded.
 */
export function computeSignature (input: SignatureInput): string {
  const hasher = signatureHasher(input)
  if (input.body !== undefined) hasher.update(input.body)
  return hasher.digest()
}

/** The same signature computed as the body streams past (a streamed import is verified once it has ended). */
export interface SignatureHasher {
  /** Adds body bytes; ignored for GET, HEAD and DELETE, whose body is signed as empty. */
  update: (chunk: Buffer | string) => void
  /** The signature of everything added so far; call once, after the last chunk. */
  digest: () => string
}

export function signatureHasher (input: Omit<SignatureInput, 'body'>): SignatureHasher {
  const method = input.method.toUpperCase()
  const signsBody = methodSignsBody(method)
  const hash = createHash('sha256')
  hash.update(input.secret + method + input.path + canonicalParameters(input.pairs), 'utf8')
  return {
    update: (chunk) => { if (signsBody) hash.update(chunk) },
    digest: () => hash.digest('base64').slice(0, 43).replace(/=+$/, '')
  }
}

/**
 * Constant-time comparison of a received signature with the expected one. A `+` that arrived as a
 * space (an unencoded `+` in the URL) and trailing `=` padding are accepted.
 */
export function signatureMatches (expected: string, received: string): boolean {
  const normalised = received.replace(/ /g, '+').replace(/=+$/, '')
  const a = Buffer.from(expected, 'utf8')
  const b = Buffer.from(normalised, 'utf8')
  // Compare equal-length buffers so the time taken does not depend on where they differ.
  const same = timingSafeEqual(a, b.length === a.length ? b : a)
  return same && b.length === a.length
}
