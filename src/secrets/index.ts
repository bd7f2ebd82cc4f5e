import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

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
  }

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

/**
 * The master key: REELHOUSE_MASTER_KEY (hex) if set, else `master.key` in the data directory,
 * generated on first use with owner-only permissions.
 */
export function loadMasterKey (options: { masterKey: string | undefined, dataDir: string }): Buffer {
  if (options.masterKey !== undefined) return Buffer.from(options.masterKey, 'hex')
  const file = join(options.dataDir, 'master.key')
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex')
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  const key = randomBytes(32)
  // 'wx' fails if another process created the file meanwhile; then read theirs.
  try {
    writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex')
  }
  return key
}
