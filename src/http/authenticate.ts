import type { FastifyRequest } from 'fastify'
import { assertAllowed, isUserRole } from '../auth/roles.ts'
import { ApiError } from '../errors/api-error.ts'
import type { SecretBox } from '../secrets/index.ts'
import { computeSignature, duplicatedKeys, expiresSeconds, parseQueryPairs, QueryParseError, signatureHasher, signatureMatches, type SignatureHasher } from '../signing/index.ts'
import type { UsersRepository } from '../users/users-repository.ts'
import { routeOf, type Auth } from './request-types.ts'

const REQUIRED = ['api_key', 'signature', 'expires'] as const

export interface Authenticator {
  /** Reads the query pairs of any request (signed or not); 400 when malformed or duplicated. */
  readQuery: (request: FastifyRequest) => void
  /** Verifies the signature of a signed request and sets `request.auth`. */
  authenticate: (request: FastifyRequest) => Promise<Auth>
  /**
   * For a body that streams (`config.streamBody`): everything but the signature, before a byte is read
   * (parameters, expiry, key, role), and a hasher to feed the body to. `matches()` after the last byte.
   */
  authenticateStreamed: (request: FastifyRequest) => Promise<StreamedClaim>
}

/** Who a streamed request says it is, and how to check that once its body has passed. */
export interface StreamedClaim {
  claimed: Auth
  hasher: SignatureHasher
  /** Compares the signature with the hasher's digest; call once, after the last chunk. */
  matches: () => boolean
}

export interface AuthenticatorDeps {
  users: UsersRepository
  secrets: SecretBox
  now: () => number
}

/** Signature verification exactly as interface-spec §5.1 with the edge cases of product.md §3. */
export function createAuthenticator (deps: AuthenticatorDeps): Authenticator {
  // Decrypted secrets by ciphertext: a rotated secret has a new ciphertext, so it is never served stale.
  const secrets = new Map<string, string>()
  const secretOf = (sealed: string): string => {
    let secret = secrets.get(sealed)
    if (secret === undefined) {
      if (secrets.size >= 10_000) secrets.clear()
      secret = deps.secrets.decrypt(sealed)
      secrets.set(sealed, secret)
    }
    return secret
  }

  function readQuery (request: FastifyRequest): void {
    const url = request.raw.url ?? '/'
    const q = url.indexOf('?')
    try {
      request.queryPairs = parseQueryPairs(q === -1 ? '' : url.slice(q + 1))
    } catch (error) {
      if (error instanceof QueryParseError) throw new ApiError('query_malformed', error.message)
      throw error
    }
    const dupes = duplicatedKeys(request.queryPairs)
    if (dupes.length > 0) {
      throw new ApiError('parameter_duplicated', `These parameters appear more than once: ${dupes.join(', ')}.`)
    }
  }

  /** The checks that need no body: parameters, expiry, and the user the key names (product.md §3). */
  async function identify (request: FastifyRequest): Promise<{ auth: Auth, secret: string, path: string, received: string }> {
    const pairs = request.queryPairs ?? []
    const params = new Map(pairs)
    const missing = REQUIRED.filter((name) => (params.get(name) ?? '') === '')
    if (missing.length > 0) throw new ApiError('parameters_missing', `These parameters are missing: ${missing.join(', ')}.`)
    const expires = expiresSeconds(params.get('expires'))
    if (expires === undefined) throw new ApiError('expires_invalid', 'Parameter expires must be an integer Unix timestamp.')
    if (expires < Math.floor(deps.now() / 1000)) throw new ApiError('request_expired', 'Request expired.')

    const apiKey = params.get('api_key') as string
    const dot = apiKey.indexOf('.')
    const credential = dot > 0 ? await deps.users.findCredential(apiKey.slice(0, dot), apiKey) : undefined
    if (credential === undefined || !isUserRole(credential.role)) throw new ApiError('signature_invalid', 'Invalid signature.')

    const url = request.raw.url ?? '/'
    const q = url.indexOf('?')
    return {
      auth: { accountId: credential.accountId, accountCode: credential.accountCode, userId: credential.userId, role: credential.role },
      secret: secretOf(credential.secret_enc),
      path: q === -1 ? url : url.slice(0, q),
      received: params.get('signature') as string
    }
  }

  async function authenticate (request: FastifyRequest): Promise<Auth> {
    const { auth, secret, path, received } = await identify(request)
    const pairs = request.queryPairs ?? []
    // A HEAD request may carry the signature of the GET it mirrors (cached variant, product.md §7).
    const methods = request.method === 'HEAD' ? ['HEAD', 'GET'] : [request.method]
    const valid = methods.some((method) => signatureMatches(computeSignature({ secret, method, path, pairs, body: request.rawBody }), received))
    if (!valid) throw new ApiError('signature_invalid', 'Invalid signature.')

    request.auth = auth
    const permission = routeOf(request).config.permission
    if (permission !== undefined) assertAllowed(auth.role, permission)
    return auth
  }

  async function authenticateStreamed (request: FastifyRequest): Promise<StreamedClaim> {
    const { auth, secret, path, received } = await identify(request)
    // The role is checked before the body is read, so a refused caller does not upload it first.
    const permission = routeOf(request).config.permission
    if (permission !== undefined) assertAllowed(auth.role, permission)
    const hasher = signatureHasher({ secret, method: request.method, path, pairs: request.queryPairs ?? [] })
    return { claimed: auth, hasher, matches: () => signatureMatches(hasher.digest(), received) }
  }

  return { readQuery, authenticate, authenticateStreamed }
}
