import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CliError } from './cli-error.ts'
import { profilesFilePath, readProfile } from './profiles-file.ts'
import type { CliEnv } from '../config/index.ts'

/**
 * What the server's first start writes into the data directory (CREDENTIALS_FILE of src/accounts, which
 * a test keeps equal): named here because importing the accounts module loads the server, ~1 s per command.
 */
export const ADMIN_CREDENTIALS_FILE = 'admin-credentials.json'

export interface Credentials { apiKey: string, secret: string }

/** What a command was given on its command line. */
export interface CredentialFlags { apiKey?: string, secret?: string, profile?: string }

/**
 * The key and secret a command signs with, from the first of these places that has any (docs/cli.md):
 * 1. `--api-key` and `--secret`;
 * 2. `REELHOUSE_API_KEY` and `REELHOUSE_SECRET`;
 * 3. the profile named by `--profile` (else `REELHOUSE_PROFILE`) in the user's credentials file;
 * 4. the data directory's `admin-credentials.json`, written by the server's first start.
 * A key and its secret always come from the same place: half a pair (a lone flag or a lone variable)
 * is refused, never completed from a later place, which could pair a key with another user's secret.
 * An explicit `--profile` that a higher place would override is refused too: a flag given is used.
 */
export function resolveCredentials (flags: CredentialFlags, env: CliEnv, dataDir: string): Credentials {
  const fromFlags = bothOrNeither(['--api-key', flags.apiKey], ['--secret', flags.secret], 'given')
  if (fromFlags !== undefined) {
    if (flags.profile !== undefined) throw new CliError('--profile cannot be combined with --api-key and --secret: pass one or the other')
    return fromFlags
  }
  const fromEnv = bothOrNeither(['REELHOUSE_API_KEY', nonEmpty(env.REELHOUSE_API_KEY)], ['REELHOUSE_SECRET', nonEmpty(env.REELHOUSE_SECRET)], 'set')
  if (fromEnv !== undefined) {
    if (flags.profile !== undefined) throw new CliError(`--profile ${flags.profile} was given, but REELHOUSE_API_KEY and REELHOUSE_SECRET are set and come first: unset them to use the profile`)
    return fromEnv
  }
  const profile = flags.profile ?? nonEmpty(env.REELHOUSE_PROFILE)
  if (profile !== undefined) {
    const saved = readProfile(profilesFilePath(env), profile)
    return { apiKey: saved.api_key, secret: saved.secret }
  }
  const file = join(dataDir, ADMIN_CREDENTIALS_FILE)
  if (!existsSync(file)) {
    throw new CliError(`no credentials: pass --api-key and --secret, set REELHOUSE_API_KEY and REELHOUSE_SECRET, name a profile with --profile (see reelhouse profile set), or start the server once to create ${file}`)
  }
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { api_key?: string, secret?: string }
  if (typeof saved.api_key !== 'string' || typeof saved.secret !== 'string') throw new CliError(`${file} has no api_key and secret`)
  return { apiKey: saved.api_key, secret: saved.secret }
}

/** The pair when both halves are given, undefined when neither is; half a pair is an error naming the other half. */
function bothOrNeither ([keyName, apiKey]: [string, string | undefined], [secretName, secret]: [string, string | undefined], verb: 'given' | 'set'): Credentials | undefined {
  if (apiKey === undefined && secret === undefined) return undefined
  if (apiKey === '' || secret === '') throw new CliError(`${apiKey === '' ? keyName : secretName} is empty`)
  const [present, missing] = secret === undefined ? [keyName, secretName] : [secretName, keyName]
  if (apiKey === undefined || secret === undefined) {
    throw new CliError(`${present} is ${verb} but ${missing} is not: a key and its secret must come from the same place, so ${verb === 'given' ? 'give' : 'set'} ${missing} too (or neither)`)
  }
  return { apiKey, secret }
}

function nonEmpty (value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

/** Quotes a value for a POSIX shell. */
export function shellQuote (value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`
}
