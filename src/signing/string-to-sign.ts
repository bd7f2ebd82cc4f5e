import { createHash } from 'node:crypto'
import { canonicalParameters, methodSignsBody, type QueryPairs } from './canonical.ts'

/**
 * What a signature covers, apart from the secret: shown to a client whose signature did not match, so a
 * person writing a signer can find where theirs differs, as AWS shows its string to sign for
 * SignatureDoesNotMatch. It is built from the request alone and takes no secret, so it cannot show one.
 */
export interface StringToSign {
  /** Upper case, as hashed. */
  method: string
  /** Exactly as in the request line, still percent-encoded. */
  path: string
  /** Decoded `key=value` pairs sorted by key, `signature` left out, joined with nothing. */
  parameters: string
  /** Bytes of the body that were hashed: 0 for GET, HEAD and DELETE, whose body is not signed. */
  body_length: number
  /** Lowercase hex SHA-256 of those bytes; null where the body streamed past and was not kept. */
  body_sha256: string | null
}

export interface StringToSignInput {
  method: string
  path: string
  pairs: QueryPairs
  /** The body as received, or only its length for a body that streamed past. */
  body?: Buffer | string | { length: number }
}

/** Built only once a signature has failed: nothing here runs for a request that is let in. */
export function stringToSign (input: StringToSignInput): StringToSign {
  const method = input.method.toUpperCase()
  const body = methodSignsBody(method) ? input.body : undefined
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body
  return {
    method,
    path: input.path,
    parameters: canonicalParameters(input.pairs),
    body_length: bytes?.length ?? 0,
    body_sha256: bytes === undefined || Buffer.isBuffer(bytes) ? createHash('sha256').update(bytes ?? Buffer.alloc(0)).digest('hex') : null
  }
}

/** One paragraph: the concatenation the server hashed, with the secret as a placeholder. */
export function describeStringToSign (signed: StringToSign): string {
  const body = signed.body_length === 0
    ? 'no body'
    : `the body (${signed.body_length} bytes${signed.body_sha256 === null ? '' : `, SHA-256 ${signed.body_sha256}`})`
  return `The signature does not match. The server hashed SHA-256 of: <secret> + ${JSON.stringify(signed.method)} + ` +
    `${JSON.stringify(signed.path)} + ${JSON.stringify(signed.parameters)} + ${body}, then kept the first 43 characters ` +
    'of its Base64. Compare each part with what your signer hashed: the path as sent (still percent-encoded), the ' +
    'parameters decoded and sorted by name without signature, the body byte for byte.'
}
