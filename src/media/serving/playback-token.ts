import { createHmac, hash, timingSafeEqual } from 'node:crypto'
import { decodeProtectedHeader, errors as joseErrors, importJWK, jwtVerify, type JWK, type JWTPayload, type KeyObject } from 'jose'
import { ApiError } from '../../errors/index.ts'

/** What a token may open: `v` video (playlists, segments, keys, captions, downloads), `t` thumbnails, `s` the storyboard. */
export type Audience = 'v' | 't' | 's'

/** A playback key as verification needs it (the read cache keeps the row; its imported key is kept beside it). */
export interface PlaybackKeyRow {
  id: string
  account_id: string
  algorithm: string
  public_jwk: string
  revoked_at: string | null
}

/** The claims that only restrict where a token plays, checked on every request it opens. */
export interface Narrowing {
  allowed_domains?: string[]
  country?: string[]
}

/** A token that passed: what every request it opens is bound to. */
export interface PlaybackGrant {
  kid: string
  aud: Audience
  /** Seconds since the epoch. */
  exp: number
  narrowing: Narrowing | null
}

/** The request a token is checked for. */
export interface TokenContext {
  accountId: string
  assetId: string
  version: string
  aud: Audience
}

const ALGORITHMS = ['RS256', 'EdDSA']
const EMBEDDED_KEY_HEADERS = ['jwk', 'jku', 'x5u', 'x5c'] as const
export const CLOCK_TOLERANCE_S = 30
/** The longest a token may run ahead (`exp`), unless the operator allows more. */
export const MAX_TOKEN_LIFETIME_S = 7 * 24 * 3600
/** A derived token lives to the end of the time bucket after the current one: at least this long, at most twice. */
export const BUCKET_S = 3600
const DERIVED_PREFIX = 'd1'
const DERIVED = /^d1\.([0-9a-f]{32})\.([vts])\.([0-9]{1,12})\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{22})$/

const invalid = (why: string): ApiError => new ApiError('playback_token_invalid', `The playback token is refused: ${why}.`)
const expired = (): ApiError => new ApiError('playback_token_expired', 'The playback token has expired; sign a new one.')
const revoked = (kid: string): ApiError => new ApiError('playback_key_revoked', `Playback key ${kid} was revoked; nothing it signed plays.`)

/** The key a `kid` names in the asset's account, or undefined (another account's key is unknown here). */
export type KeyLookup = (accountId: string, kid: string) => Promise<PlaybackKeyRow | undefined>

/**
 * Playback tokens (docs/playback.md, "Signed playback"): the customer's JWT on the master URL, and the
 * derived token the service puts in the path of every child URL, an HMAC with a key of its own.
 */
export function playbackTokens ({ keys, derivedKey, now = Date.now, maxLifetimeS = MAX_TOKEN_LIFETIME_S }: { keys: KeyLookup, derivedKey: Buffer, now?: () => number, maxLifetimeS?: number }) {
  const imported = new WeakMap<PlaybackKeyRow, Promise<KeyObject | Uint8Array>>()

  async function currentKey (accountId: string, kid: string): Promise<PlaybackKeyRow> {
    const row = await keys(accountId, kid)
    if (row === undefined) throw invalid(`kid ${kid} names no playback key of this account`)
    if (row.revoked_at !== null) throw revoked(kid)
    return row
  }

  function publicKey (row: PlaybackKeyRow): Promise<KeyObject | Uint8Array> {
    let key = imported.get(row)
    if (key === undefined) {
      key = importJWK(JSON.parse(row.public_jwk) as JWK, row.algorithm) as Promise<KeyObject | Uint8Array>
      imported.set(row, key)
    }
    return key
  }

  function mac (ctx: TokenContext, kid: string, exp: number, narrow: string): string {
    return createHmac('sha256', derivedKey).update([ctx.accountId, ctx.assetId, ctx.version, kid, ctx.aud, hash('sha256', narrow, 'base64url'), String(exp)].join('\u0000')).digest().subarray(0, 16).toString('base64url')
  }

  return {
    /** Verifies the customer's JWT for this request; answers what it grants. */
    async verifyJwt (token: string, ctx: TokenContext): Promise<PlaybackGrant> {
      let header: ReturnType<typeof decodeProtectedHeader>
      try {
        header = decodeProtectedHeader(token)
      } catch {
        throw invalid('it is not a JWT')
      }
      if (token.split('.').length !== 3) throw invalid('it is not a signed JWT')
      for (const name of EMBEDDED_KEY_HEADERS) if (Object.hasOwn(header, name)) throw invalid(`a ${name} header is not accepted (the key is the account's, named by kid)`)
      if (typeof header.alg !== 'string' || !ALGORITHMS.includes(header.alg)) throw invalid(`alg ${String(header.alg)} is not RS256 or EdDSA`)
      if (typeof header.kid !== 'string' || header.kid === '') throw invalid('it has no kid')
      if (!/^[0-9a-f]{32}$/.test(header.kid)) throw invalid(`kid ${header.kid.slice(0, 64)} names no playback key of this account`)
      const row = await currentKey(ctx.accountId, header.kid)
      if (row.algorithm !== header.alg) throw invalid(`key ${row.id} signs with ${row.algorithm}, not ${header.alg}`)
      let payload: JWTPayload
      try {
        ({ payload } = await jwtVerify(token, await publicKey(row), { algorithms: [row.algorithm], clockTolerance: CLOCK_TOLERANCE_S, requiredClaims: ['exp', 'sub', 'aud'], currentDate: new Date(now()) }))
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw expired()
        if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'nbf') throw invalid('it is not valid yet (nbf)')
        if (error instanceof joseErrors.JWTClaimValidationFailed) throw invalid(`claim ${error.claim} is missing or malformed`)
        if (error instanceof joseErrors.JWSSignatureVerificationFailed) throw invalid('its signature does not verify')
        throw invalid('it is malformed')
      }
      if (payload.sub !== ctx.assetId) throw invalid('sub is not this asset\'s embed code')
      const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud]
      if (!aud.includes(ctx.aud)) throw invalid(`aud is not ${ctx.aud}`)
      const exp = payload.exp as number
      if (exp - now() / 1000 > maxLifetimeS + CLOCK_TOLERANCE_S) throw invalid(`exp is more than ${maxLifetimeS} seconds ahead`)
      return { kid: row.id, aud: ctx.aud, exp, narrowing: narrowingOf(payload) }
    },

    /** The derived token for the child URLs of a request `grant` opened: bound to it, ending with its bucket. */
    derive (grant: PlaybackGrant, ctx: TokenContext): string {
      const nowS = Math.floor(now() / 1000)
      const exp = Math.min(grant.exp, (Math.floor(nowS / BUCKET_S) + 2) * BUCKET_S)
      const narrow = grant.narrowing === null ? '' : Buffer.from(JSON.stringify(grant.narrowing)).toString('base64url')
      return [DERIVED_PREFIX, grant.kid, ctx.aud, String(exp), narrow, mac(ctx, grant.kid, exp, narrow)].join('.')
    },

    /** Verifies a derived token from a child URL's path for this request. */
    async verifyDerived (token: string, ctx: TokenContext): Promise<PlaybackGrant> {
      const m = DERIVED.exec(token)
      if (m === null) throw invalid('the token in the path is malformed')
      const [, kid, aud, expText, narrow] = m as unknown as [string, string, Audience, string, string, string]
      const expected = Buffer.from(mac(ctx, kid, Number(expText), narrow))
      const given = Buffer.from(m[5] as string)
      if (aud !== ctx.aud) throw invalid(`the token in the path is for aud ${aud}, not ${ctx.aud}`)
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid('the token in the path was not issued for this asset, version and audience')
      const exp = Number(expText)
      if (exp * 1000 <= now()) throw expired()
      await currentKey(ctx.accountId, kid)
      return { kid, aud, exp, narrowing: narrow === '' ? null : JSON.parse(Buffer.from(narrow, 'base64url').toString('utf8')) as Narrowing }
    }
  }
}

export type PlaybackTokens = ReturnType<typeof playbackTokens>

/** `allowed_domains` and `country` as given (a string or a list), or null with neither; anything else is refused. */
function narrowingOf (payload: JWTPayload): Narrowing | null {
  const narrowing: Narrowing = {}
  const domains = payload.allowed_domains
  if (domains !== undefined) {
    if (!Array.isArray(domains) || !domains.every((d) => typeof d === 'string')) throw invalid('allowed_domains must be a list of host names')
    narrowing.allowed_domains = (domains as string[]).map((d) => d.toLowerCase())
  }
  const country = payload.country
  if (country !== undefined) {
    const list = typeof country === 'string' ? [country] : country
    if (!Array.isArray(list) || !list.every((c) => typeof c === 'string')) throw invalid('country must be a country code or a list of them')
    narrowing.country = (list as string[]).map((c) => c.toUpperCase())
  }
  return narrowing.allowed_domains === undefined && narrowing.country === undefined ? null : narrowing
}
