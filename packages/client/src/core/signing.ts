/**
 * Request signing (docs/api.md, "Signing"): SHA-256 over secret + METHOD + path + the query parameters
 * except `signature` sorted by key as `key=value` (decoded, `+` as a space) + the body; Base64, the
 * first 43 characters, trailing `=` removed; sent URL-encoded. WebCrypto only, so it runs in Node ≥ 20
 * and in browsers (whose `crypto.subtle` needs a secure context: HTTPS or localhost).
 */

export type QueryPairs = Array<[key: string, value: string]>

const encoder = new TextEncoder()

/** The pairs of a raw (still encoded) query string, decoded as the server decodes them. */
export function parseQuery (raw: string): QueryPairs {
  const pairs: QueryPairs = []
  for (const segment of raw.split('&')) {
    if (segment === '') continue
    const eq = segment.indexOf('=')
    pairs.push(eq === -1 ? [decode(segment), ''] : [decode(segment.slice(0, eq)), decode(segment.slice(eq + 1))])
  }
  return pairs
}

function decode (part: string): string {
  return decodeURIComponent(part.replace(/\+/g, ' '))
}

/** `key=value` with both parts percent-encoded (`+`, `=`, `/` and spaces included). */
export function encodePair (key: string, value: string): string {
  return `${encodeURIComponent(key)}=${encodeURIComponent(value)}`
}

export interface SignatureInput {
  secret: string
  method: string
  /** The path exactly as it is sent (percent-encoded), without the query. */
  path: string
  pairs: QueryPairs
  /** Ignored for GET, HEAD and DELETE, which the server signs as empty. */
  body?: string | Uint8Array
}

/** The signature of a request, not yet URL-encoded. */
export async function computeSignature (input: SignatureInput): Promise<string> {
  const method = input.method.toUpperCase()
  const sorted = input.pairs.filter(([key]) => key !== 'signature').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  let text = input.secret + method + input.path
  for (const [key, value] of sorted) text += `${key}=${value}`
  const prefix = encoder.encode(text)
  const body = signsBody(method) && input.body !== undefined
    ? (typeof input.body === 'string' ? encoder.encode(input.body) : input.body)
    : new Uint8Array(0)
  const data = new Uint8Array(prefix.length + body.length)
  data.set(prefix)
  data.set(body, prefix.length)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data))
  return base64(digest).slice(0, 43).replace(/=+$/, '')
}

function signsBody (method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'DELETE'
}

function base64 (bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

export interface SignedPathInput {
  apiKey: string
  secret: string
  method: string
  /** Path with an optional raw query (`/v2/labels?limit=7&page_token=…`), encoded as it will be sent. */
  path: string
  /** More query parameters (not yet encoded); `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>
  body?: string | Uint8Array
  /** Unix seconds after which the server refuses the request. */
  expires: number
}

/**
 * The signed relative URL of a request: its path, its query with `api_key` and `expires` added, and
 * `signature` last.
 * @example await signedPath({ apiKey, secret, method: 'GET', path: '/v2/labels', expires: 1893456000 })
 */
export async function signedPath (input: SignedPathInput): Promise<string> {
  const q = input.path.indexOf('?')
  const path = q === -1 ? input.path : input.path.slice(0, q)
  const existing = q === -1 ? '' : input.path.slice(q + 1)
  const extra: QueryPairs = Object.entries(input.query ?? {})
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => [key, String(value)])
  extra.push(['api_key', input.apiKey], ['expires', String(input.expires)])
  const query = [existing, ...extra.map(([key, value]) => encodePair(key, value))].filter((part) => part !== '').join('&')
  const signature = await computeSignature({ secret: input.secret, method: input.method, path, pairs: parseQuery(query), body: input.body })
  return `${path}?${query}&signature=${encodeURIComponent(signature)}`
}
