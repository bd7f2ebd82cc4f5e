import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { CliError } from './cli-error.ts'
import type { CliEnv } from '../config/index.ts'

export interface ProfileCredentials { api_key: string, secret: string, base_url?: string }

/** The file as stored: `{"profiles": {"<name>": {"api_key": "…", "secret": "…"}}}`. */
interface ProfilesDocument { profiles: Record<string, ProfileCredentials> }

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

/**
 * Where named profiles live: `$XDG_CONFIG_HOME/reelhouse/credentials`, else
 * `~/.config/reelhouse/credentials` (the XDG base directory rule: a relative XDG_CONFIG_HOME is ignored).
 */
export function profilesFilePath (env: CliEnv): string {
  const xdg = env.XDG_CONFIG_HOME
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), '.config')
  return join(base, 'reelhouse', 'credentials')
}

/** Every profile of the file; none when it does not exist. Refuses a file others can read, like ssh. */
export function readProfiles (file: string): Record<string, ProfileCredentials> {
  if (!existsSync(file)) return {}
  const mode = statSync(file).mode & 0o777
  if ((mode & 0o077) !== 0) {
    throw new CliError(`${file} holds secrets but other users may access it (mode ${mode.toString(8).padStart(4, '0')}), so it is not read. Run: chmod 600 '${file}'`)
  }
  let document: unknown
  try {
    document = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new CliError(`${file} is not valid JSON (${(error as Error).message}); expected {"profiles": {"<name>": {"api_key": "…", "secret": "…"}}}`)
  }
  const profiles = (document as Partial<ProfilesDocument> | null)?.profiles
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
    throw new CliError(`${file} has no "profiles" object; expected {"profiles": {"<name>": {"api_key": "…", "secret": "…"}}}`)
  }
  return profiles
}

/** One profile's key and secret; a clear error when the file, the profile or one of its two values is missing. */
export function readProfile (file: string, name: string): ProfileCredentials {
  const profiles = readProfiles(file)
  const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined
  if (profile === undefined) {
    const known = Object.keys(profiles)
    const where = existsSync(file) ? `in ${file}${known.length > 0 ? ` (it has: ${known.join(', ')})` : ''}` : `(${file} does not exist)`
    throw new CliError(`no profile "${name}" ${where}. Create it with: reelhouse profile set ${name} --api-key KEY --secret SECRET`)
  }
  for (const field of ['api_key', 'secret'] as const) {
    if (typeof profile[field] !== 'string' || profile[field] === '') throw new CliError(`profile "${name}" in ${file} has no ${field}: set both with reelhouse profile set ${name} --api-key KEY --secret SECRET`)
  }
  return { api_key: profile.api_key, secret: profile.secret }
}

/**
 * Adds or replaces a profile. The directory is created owner-only (0700) and the file written owner-only
 * (0600) through a temporary file and a rename, so a crash never leaves half a file or a readable copy.
 */
export function saveProfile (file: string, name: string, credentials: ProfileCredentials): void {
  if (!PROFILE_NAME.test(name)) throw new CliError(`profile names are 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit; got "${name}"`)
  const profiles = readProfiles(file)
  profiles[name] = { api_key: credentials.api_key, secret: credentials.secret, ...(credentials.base_url === undefined ? {} : { base_url: credentials.base_url }) }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, JSON.stringify({ profiles }, null, 2) + '\n', { mode: 0o600, flag: 'wx' })
    // The mode given at creation is masked by the umask; this one is not.
    chmodSync(temporary, 0o600)
    renameSync(temporary, file)
  } finally {
    rmSync(temporary, { force: true })
  }
}
