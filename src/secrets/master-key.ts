import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

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
