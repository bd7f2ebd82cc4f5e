import { Type, type Static } from 'typebox'
import { described, HexId, SignedErrors, Timestamp } from '../../http/schemas.ts'

const PublicJwk = Type.Object({
  kty: Type.String({ description: 'The key type: `OKP` (Ed25519) or `RSA`', examples: ['OKP'] }),
  crv: Type.Optional(Type.String({ description: 'The curve of an `OKP` key', examples: ['Ed25519'] })),
  x: Type.Optional(Type.String({ description: 'The public point of an `OKP` key, base64url', examples: ['11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'] })),
  n: Type.Optional(Type.String({ description: 'The modulus of an `RSA` key, base64url', examples: ['0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw'] })),
  e: Type.Optional(Type.String({ description: 'The exponent of an `RSA` key, base64url', examples: ['AQAB'] }))
}, { description: 'The public key, as a JWK', additionalProperties: true })

export const PlaybackKey = Type.Object({
  id: described(HexId, 'The key\'s id: the `kid` of the tokens it signs', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'),
  algorithm: Type.Enum(['EdDSA', 'RS256'], { description: 'The `alg` of the tokens it signs', examples: ['EdDSA'] }),
  managed: Type.Boolean({ description: 'The key the service holds for the account, signing what `POST /v2/assets/{asset_id}/playback_tokens` issues', examples: [false] }),
  public_jwk: PublicJwk,
  created_at: described(Timestamp, 'When the key was created', '2026-11-22T10:00:00Z')
}, { title: 'PlaybackKey', description: 'A key that signs playback tokens (docs/playback.md); only its public half is kept' })

export const CreatedPlaybackKey = Type.Object({
  ...PlaybackKey.properties,
  private_key: Type.String({ description: 'The private key, PKCS #8 PEM; shown only in this answer', examples: ['-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI…\n-----END PRIVATE KEY-----\n'] }),
  private_jwk: Type.Object({}, { additionalProperties: true, description: 'The private key as a JWK; shown only in this answer' })
}, { title: 'CreatedPlaybackKey', description: 'A new key and its private half, shown only this once' })

export const CreatePlaybackKeyBody = Type.Object({}, { additionalProperties: false, description: 'Nothing: the service makes an Ed25519 key' })

export const PlaybackTokenBody = Type.Object({
  expires_in: Type.Integer({ minimum: 1, maximum: 86_400, description: 'Seconds the token lives, at most 86,400', examples: [3600] }),
  aud: Type.Optional(Type.Enum(['v', 't', 's'], { description: 'What it opens: v video (the default), t thumbnails, s the storyboard', examples: ['v'] }))
}, { additionalProperties: false })

export const PlaybackToken = Type.Object({
  token: Type.String({ description: 'The JWT, for `?token=` on the master URL', examples: ['eyJhbGciOiJFZERTQSIsImtpZCI6IjNm…'] }),
  kid: described(HexId, 'The managed key that signed it', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'),
  expires_at: described(Timestamp, 'When it expires', '2026-11-22T11:00:00Z')
}, { title: 'PlaybackToken', description: 'A playback token signed with the account\'s managed key' })

export const PlaybackKeyErrors = SignedErrors
export type ApiPlaybackKey = Static<typeof PlaybackKey>
export type CreatedApiPlaybackKey = Static<typeof CreatedPlaybackKey>
export type PlaybackTokenInput = Static<typeof PlaybackTokenBody>
export type ApiPlaybackToken = Static<typeof PlaybackToken>
