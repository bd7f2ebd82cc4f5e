import crypto, { createHash, timingSafeEqual } from 'node:crypto'
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
 * docs/api.md ("Signing"): SHA-256 over secret + METHOD + path + sorted params + body, Base64, first 43
 * characters, trailing `=` removed. Not URL-encoded.
 */
export function computeSignature (input: SignatureInput): string {
  const method = input.method.toUpperCase()
  const text = signedPrefix(input, method)
  const body = methodSignsBody(method) ? input.body : undefined
  const data = body === undefined || body.length === 0
    ? text
    : Buffer.concat([Buffer.from(text, 'utf8'), typeof body === 'string' ? Buffer.from(body, 'utf8') : body])
  return toSignature(sha256Base64(data))
}

/**
 * Whether `received` is the signature of a bodiless request under one of `methods` (a HEAD may carry the
 * signature of the GET it mirrors): the parameters are sorted and joined once, and each method costs
 * one hash of the short text.
 */
export function signatureMatchesUnder (input: Omit<SignatureInput, 'method' | 'body'>, methods: readonly string[], received: string): boolean {
  const rest = input.path + canonicalParameters(input.pairs)
  for (const method of methods) {
    if (signatureMatches(toSignature(sha256Base64(input.secret + method + rest)), received)) return true
  }
  return false
}

/** secret + METHOD + path + sorted parameters: everything the signature covers but the body. */
function signedPrefix (input: Omit<SignatureInput, 'body'>, upperMethod: string): string {
  return input.secret + upperMethod + input.path + canonicalParameters(input.pairs)
}

/** Every signed request hashes once: the one-shot `crypto.hash` (Node ≥ 20.12) skips building a Hash object. */
const sha256Base64: (data: string | Buffer) => string = typeof crypto.hash === 'function'
  ? (data) => crypto.hash('sha256', data, 'base64')
  : (data) => createHash('sha256').update(data).digest('base64')

/** The first 43 characters of the Base64 digest, trailing `=` removed (docs/api.md, "Signing"). */
function toSignature (base64: string): string {
  return base64.slice(0, 43).replace(/=+$/, '')
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
  hash.update(signedPrefix(input, method), 'utf8')
  return {
    update: (chunk) => { if (signsBody) hash.update(chunk) },
    digest: () => toSignature(hash.digest('base64'))
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
