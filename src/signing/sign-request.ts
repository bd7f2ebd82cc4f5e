import { parseQueryPairs } from './canonical.ts'
import { computeSignature } from './signature.ts'

export interface SignRequestOptions {
  apiKey: string
  secret: string
  method: string
  /** Path, optionally with a query string (`/v2/labels?limit=7&page_token=…`); percent-encoded as it will be sent. */
  path: string
  /** Extra query parameters (decoded values). */
  params?: Record<string, string | number>
  body?: string | Buffer
  /** Unix seconds; default: now + 15 minutes. */
  expires?: number
}

/**
 * Builds the signed relative URL (path + query with `signature` last) for a request: what the server,
 * the tests, the CLI and the TypeScript client all use.
 * @example signedPath({ apiKey, secret, method: 'GET', path: '/v2/users' }) // '/v2/users?api_key=…&expires=…&signature=…'
 */
export function signedPath (options: SignRequestOptions): string {
  const [path, existing = ''] = options.path.split('?', 2) as [string, string?]
  const expires = options.expires ?? Math.floor(Date.now() / 1000) + 15 * 60
  const extra: Array<[string, string]> = [
    ...Object.entries(options.params ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
    ['api_key', options.apiKey],
    ['expires', String(expires)]
  ]
  const encodedExtra = extra.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
  const query = [existing, ...encodedExtra].filter((s) => s !== '').join('&')
  const pairs = parseQueryPairs(query)
  const signature = computeSignature({ secret: options.secret, method: options.method, path, pairs, body: options.body })
  return `${path}?${query}&signature=${encodeURIComponent(signature)}`
}
