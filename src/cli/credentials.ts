import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CREDENTIALS_FILE } from '../accounts/accounts-service.ts'

export interface Credentials { apiKey: string, secret: string }

/** --api-key/--secret, else REELHOUSE_API_KEY/REELHOUSE_SECRET, else the first-start credentials file. */
export function resolveCredentials (options: { apiKey?: string, secret?: string }, dataDir: string): Credentials {
  const apiKey = options.apiKey ?? process.env.REELHOUSE_API_KEY
  const secret = options.secret ?? process.env.REELHOUSE_SECRET
  if (apiKey !== undefined && secret !== undefined) return { apiKey, secret }
  const file = join(dataDir, CREDENTIALS_FILE)
  if (!existsSync(file)) throw new Error(`no credentials: pass --api-key and --secret, set REELHOUSE_API_KEY/REELHOUSE_SECRET, or start the server once to create ${file}`)
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { api_key: string, secret: string }
  return { apiKey: saved.api_key, secret: saved.secret }
}

/** Quotes a value for a POSIX shell. */
export function shellQuote (value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}
