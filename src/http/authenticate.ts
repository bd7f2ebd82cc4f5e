import type { FastifyRequest } from 'fastify'
import { isUserRole } from '../auth/roles.ts'
import { ApiError } from '../errors/api-error.ts'
import type { SecretBox } from '../secrets/index.ts'
import { computeSignature, describeStringToSign, duplicatedKeys, expiresSeconds, parseQueryPairs, QueryParseError, signatureHasher, signatureMatches, signatureMatchesUnder, stringToSign, type QueryPairs, type SignatureHasher, type StringToSignInput } from '../signing/index.ts'
import type { Caller } from '../auth/caller.ts'
import type { SignedRequest } from './request-types.ts'

const REQUIRED = ['api_key', 'signature', 'expires'] as const
const HEAD_SIGNATURES = ['HEAD', 'GET'] as const

/**
 * The names a signed parameter may have. The signed string joins `key=value` pairs with nothing between
 * them, so a name holding `=`, `&` or a body's characters could make a signature fit a request nobody
 * signed; the rule itself is fixed by existing clients (docs/api.md, "Signing").
 */
const PARAMETER_NAME = /^[A-Za-z0-9_.\-[\]]+$/

export interface Authenticator {
  /**
   * A signed GET or HEAD whose exact URL this process verified before (remembered from its second
   * verification on), with the same credential, not
   * yet expired: its parsed pairs and its caller; undefined when the request must have its query read
   * (`readQuery`) and its signature verified (`authenticate`). The role is the role step's to check.
   */
  known: (method: string, url: string) => VerifiedUrl | undefined
  /** The query pairs of any request's URL (signed or not); 400 when malformed or duplicated. */
  readQuery: (url: string) => QueryPairs
  /** Verifies the signature of a signed request (its pairs and body as the pipeline read them) and returns its caller. */
  authenticate: (request: FastifyRequest, signed: SignedRequest) => Promise<Caller>
  /**
   * For a body that streams (`config.streamBody`): everything but the signature, before a byte is read
   * (parameters, expiry, key), and a hasher to feed the body to. `matches()` after the last byte.
   */
  authenticateStreamed: (request: FastifyRequest, signed: SignedRequest) => Promise<StreamedClaim>
}

/** Who a streamed request says it is, and how to check that once its body has passed. */
export interface StreamedClaim {
  claimed: Caller
  hasher: SignatureHasher
  /** Compares the signature with the hasher's digest; call once, after the last chunk. */
  matches: () => boolean
  /** The 401 for a body whose signature did not match, with what was signed (the body by its length). */
  mismatch: () => ApiError
}

/** What the key of a signed request names: its user, role and account, and the encrypted secret. */
export interface Credential {
  userId: string
  accountId: string
  accountCode: string
  role: string
  secret_enc: string
}

export interface AuthenticatorDeps {
  /** The credential lookup: by the account code the key starts with, and the key. */
  users: { findCredential: (accountCode: string, apiKey: string) => Promise<Credential | undefined> }
  secrets: SecretBox
  now: () => number
  /** Refuse a signature that expires further ahead than this (MAX_EXPIRES_SECONDS); undefined: no bound. */
  maxExpiresSeconds?: number
  /**
   * Where verified URLs are remembered (the read cache, src/db/read-cache.ts): keyed by method and URL,
   * bound to the signing user, so any change to that user (a rotation, a role, a deletion) forgets them.
   */
  verified?: VerifiedUrls
}

/** The part of the read cache the authenticator uses. */
export interface VerifiedUrls {
  readonly epoch: number
  get: (key: string) => unknown
  set: (key: string, epoch: number, entry: { accountId: string, table: string, id: string, value: unknown }, options?: { secondSight?: boolean }) => void
}

/** What a verified URL proved: its parsed parameters, who signed it, and until when it is valid. */
export interface VerifiedUrl { readonly pairs: QueryPairs, readonly caller: Caller, readonly expires: number }

/** Signature verification exactly as the signing rules of docs/api.md ("Signing"), edge cases included. */
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

  /**
   * The signature of a URL is a function of the URL and the secret alone: a URL verified once with a
   * credential that has not changed since verifies again. Only bodiless GET and HEAD qualify, which is
   * what players repeat with a fixed `expires` (docs/benchmarks.md).
   */
  function known (method: string, url: string): VerifiedUrl | undefined {
    if (deps.verified === undefined || (method !== 'GET' && method !== 'HEAD')) return undefined
    const hit = deps.verified.get(verifiedKey(method, url)) as VerifiedUrl | undefined
    if (hit === undefined || hit.expires < Math.floor(deps.now() / 1000)) return undefined
    return hit
  }

  function readQuery (url: string): QueryPairs {
    const q = url.indexOf('?')
    let pairs: QueryPairs
    try {
      pairs = parseQueryPairs(q === -1 ? '' : url.slice(q + 1))
    } catch (error) {
      if (error instanceof QueryParseError) throw new ApiError('query_malformed', error.message)
      throw error
    }
    const dupes = duplicatedKeys(pairs)
    if (dupes.length > 0) {
      throw new ApiError('parameter_duplicated', `These parameters appear more than once: ${dupes.join(', ')}.`)
    }
    return pairs
  }

  /** The checks that need no body: parameters, expiry, and the user the key names (docs/api.md, "Signing"). */
  async function identify (request: FastifyRequest, pairs: QueryPairs): Promise<{ caller: Caller, secret: string, path: string, received: string }> {
    const badName = pairs.find(([key]) => !PARAMETER_NAME.test(key))
    if (badName !== undefined) {
      throw new ApiError('parameter_name_invalid', `Parameter name ${JSON.stringify(badName[0].slice(0, 64))} is not allowed: names hold only letters, digits and _ . - [ ].`)
    }
    const params = new Map(pairs)
    const missing = REQUIRED.filter((name) => (params.get(name) ?? '') === '')
    if (missing.length > 0) throw new ApiError('parameters_missing', `These parameters are missing: ${missing.join(', ')}.`)
    const expires = expiresSeconds(params.get('expires'))
    if (expires === undefined) throw new ApiError('expires_invalid', 'Parameter expires must be an integer Unix timestamp.')
    const now = Math.floor(deps.now() / 1000)
    if (expires < now) throw new ApiError('request_expired', 'Request expired.')
    if (deps.maxExpiresSeconds !== undefined && expires > now + deps.maxExpiresSeconds) {
      throw new ApiError('expires_too_far', `Request expires too far ahead: at most ${deps.maxExpiresSeconds} seconds from now.`)
    }

    const apiKey = params.get('api_key') as string
    const dot = apiKey.indexOf('.')
    const credential = dot > 0 ? await deps.users.findCredential(apiKey.slice(0, dot), apiKey) : undefined
    if (credential === undefined || !isUserRole(credential.role)) {
      throw new ApiError('signature_invalid', 'Invalid signature.', { detail: 'The api_key names no user: check that it was copied whole and that its user still exists.' })
    }

    const url = request.raw.url ?? '/'
    const q = url.indexOf('?')
    return {
      caller: { accountId: credential.accountId, accountCode: credential.accountCode, userId: credential.userId, role: credential.role },
      secret: secretOf(credential.secret_enc),
      path: q === -1 ? url : url.slice(0, q),
      received: params.get('signature') as string
    }
  }

  async function authenticate (request: FastifyRequest, signed: SignedRequest): Promise<Caller> {
    const epoch = deps.verified?.epoch ?? 0
    const pairs = signed.pairs
    const body = signed.body
    const { caller, secret, path, received } = await identify(request, pairs)
    // A HEAD request may carry the signature of the GET it mirrors (cached variant, docs/credits-and-cache.md):
    // its parameters are sorted and joined once for both.
    const valid = request.method === 'HEAD'
      ? signatureMatchesUnder({ secret, path, pairs }, HEAD_SIGNATURES, received)
      : signatureMatches(computeSignature({ secret, method: request.method, path, pairs, body }), received)
    if (!valid) throw signatureMismatch({ method: request.method, path, pairs, body })

    if (deps.verified !== undefined && (request.method === 'GET' || request.method === 'HEAD') && (body?.length ?? 0) === 0) {
      const expires = expiresSeconds(pairs.find(([key]) => key === 'expires')?.[1]) as number
      // Kept from its second sight: a URL signed for one request only would take a place it never uses.
      const value: VerifiedUrl = { pairs, caller, expires }
      deps.verified.set(verifiedKey(request.method, request.url), epoch, { accountId: caller.accountId, table: 'users', id: caller.userId, value }, { secondSight: true })
    }
    return caller
  }

  async function authenticateStreamed (request: FastifyRequest, state: SignedRequest): Promise<StreamedClaim> {
    const pairs = state.pairs
    const { caller, secret, path, received } = await identify(request, pairs)
    const signed = signatureHasher({ secret, method: request.method, path, pairs })
    // Only the body's length is kept for the refusal: a second hash of every streamed byte would cost
    // each import what only a failed one needs.
    const body = { length: 0 }
    const hasher: SignatureHasher = { update: (chunk) => { body.length += chunk.length; signed.update(chunk) }, digest: signed.digest }
    return {
      claimed: caller,
      hasher,
      matches: () => signatureMatches(hasher.digest(), received),
      mismatch: () => signatureMismatch({ method: request.method, path, pairs, body })
    }
  }

  return { known, readQuery, authenticate, authenticateStreamed }
}

/**
 * A verified URL's key in the read cache: a GET's is its raw URL itself, so the hot path hashes the URL
 * without copying it into a longer string; a HEAD's is `HEAD <url>`. Neither can be another entry's: a
 * request target holds no space and no NUL, and the rows' keys all hold NULs.
 */
function verifiedKey (method: string, url: string): string {
  return method === 'GET' ? url : 'HEAD ' + url
}

/**
 * The 401 of a signature that does not match: the message clients match on, and in `detail` and
 * `string_to_sign` what the server hashed, minus the secret (docs/api.md, "Signing"). Built only here,
 * on the way out, so an accepted request never pays for it.
 */
function signatureMismatch (request: StringToSignInput): ApiError {
  const signed = stringToSign(request)
  return new ApiError('signature_invalid', 'Invalid signature.', { detail: describeStringToSign(signed), string_to_sign: signed })
}
