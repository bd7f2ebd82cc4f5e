import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/**
 * Encrypts user secrets at rest with AES-256-GCM. Signatures need the secret in clear, so it cannot
 * be hashed; a database dump alone does not reveal it. Format: v1.<iv>.<tag>.<ciphertext> (base64url).
 */
export class SecretBox {
  readonly #key: Buffer

  constructor (masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes')
    this.#key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'reelhouse user secrets', 32))
    this.tokenKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'reelhouse page tokens', 32))
    this.originalsKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'reelhouse original urls', 32))
    this.playbackKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'reelhouse derived playback tokens', 32))
  }

  /** A key derived from the master key for the signed URLs of originals, and nothing else. */
  readonly originalsKey: Buffer

  /** The HMAC key of derived playback tokens (the child URLs of a signed master), of its own. */
  readonly playbackKey: Buffer

  /** A key derived from the master key for HMACs of opaque tokens (page tokens, upload URLs). */
  readonly tokenKey: Buffer

  encrypt (plain: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv)
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.')
  }

  decrypt (sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.')
    if (version !== 'v1' || iv === undefined || tag === undefined || data === undefined) throw new Error('unknown secret format')
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
  }
}
