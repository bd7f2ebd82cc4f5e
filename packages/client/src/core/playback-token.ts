/** A private key as `POST /v2/playback_keys` answers it: `private_key` (PKCS #8 PEM) or `private_jwk`. */
export type PlaybackPrivateKey = string | (JsonWebKey & { kid?: string })

export interface PlaybackTokenOptions {
  /** The asset's embed code (the token's `sub`). */
  embedCode: string
  /** The key's id (`kid`); read from a JWK's own `kid` when not given. */
  keyId?: string
  /** Seconds from now until it expires (at most 7 days); 3600 by default. */
  expiresIn?: number
  /** `v` video (the default), `t` thumbnails, `s` the storyboard. */
  aud?: 'v' | 't' | 's'
  /** Narrowing claims: the only sites (hosts) and countries it plays on, within the asset's own rules. */
  allowedDomains?: string[]
  country?: string | string[]
  /** Not valid before this many seconds from now. */
  notBeforeIn?: number
  /** The clock, in milliseconds (tests). */
  now?: number
}

const b64url = (bytes: Uint8Array): string => {
  let text = ''
  for (const byte of bytes) text += String.fromCharCode(byte)
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
const json64 = (value: object): string => b64url(new TextEncoder().encode(JSON.stringify(value)))

/** PKCS #8 PEM to its DER bytes. */
function pemBytes (pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '')
  return Uint8Array.from(atob(body), (c) => c.charCodeAt(0))
}

/** An Ed25519 key's PKCS #8 DER starts with this OID (1.3.101.112); anything else is taken for RSA. */
function isEd25519 (der: Uint8Array): boolean {
  return der.length === 48 && der[7] === 0x06 && der[8] === 0x03 && der[9] === 0x2b && der[10] === 0x65 && der[11] === 0x70
}

/**
 * Signs a playback token in your own backend (docs/playback.md): a JWT with `sub` the embed code,
 * `aud`, `exp`, `kid`, signed EdDSA (an Ed25519 key, as `POST /v2/playback_keys` makes them) or RS256.
 * Add it to the master URL as `?token=`. Uses WebCrypto only (Node ≥ 20, current browsers).
 * @example const token = await signPlaybackToken(privateJwk, { embedCode, expiresIn: 3600 })
 */
export async function signPlaybackToken (privateKey: PlaybackPrivateKey, options: PlaybackTokenOptions): Promise<string> {
  const subtle = globalThis.crypto.subtle
  let key: CryptoKey
  let alg: 'EdDSA' | 'RS256'
  let kid = options.keyId
  if (typeof privateKey === 'string') {
    const der = pemBytes(privateKey)
    alg = isEd25519(der) ? 'EdDSA' : 'RS256'
    key = await subtle.importKey('pkcs8', der, alg === 'EdDSA' ? { name: 'Ed25519' } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign'])
  } else {
    alg = privateKey.kty === 'OKP' ? 'EdDSA' : 'RS256'
    kid ??= privateKey.kid
    const { kid: _kid, alg: _alg, ...jwk } = privateKey as JsonWebKey & { kid?: string }
    key = await subtle.importKey('jwk', jwk, alg === 'EdDSA' ? { name: 'Ed25519' } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign'])
  }
  if (kid === undefined || kid === '') throw new TypeError('signPlaybackToken needs the key\'s id: pass keyId, or the private_jwk (it carries its kid)')
  const now = Math.floor((options.now ?? Date.now()) / 1000)
  const claims: Record<string, unknown> = { sub: options.embedCode, aud: options.aud ?? 'v', exp: now + (options.expiresIn ?? 3600), iat: now }
  if (options.notBeforeIn !== undefined) claims.nbf = now + options.notBeforeIn
  if (options.allowedDomains !== undefined) claims.allowed_domains = options.allowedDomains
  if (options.country !== undefined) claims.country = options.country
  const input = `${json64({ alg, kid, typ: 'JWT' })}.${json64(claims)}`
  const signature = await subtle.sign(alg === 'EdDSA' ? { name: 'Ed25519' } : { name: 'RSASSA-PKCS1-v1_5' }, key, new TextEncoder().encode(input))
  return `${input}.${b64url(new Uint8Array(signature))}`
}
