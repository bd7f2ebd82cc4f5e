import type { CliEnv, Config } from '../config/index.ts'
import { readRunningServer, RUNNING_SERVER_FILE } from '../server/running-server.ts'
import { CliError } from './cli-error.ts'
import { profilesFilePath, readProfiles } from './profiles-file.ts'

/** The address a command talks to, and where it came from (said by `--verbose` and in errors). */
export interface ServerAddress { url: string, source: string }

/**
 * The service's address, from the first of these that has one (docs/cli.md, "The server's address"):
 * 1. `--base-url`;
 * 2. `REELHOUSE_URL`;
 * 3. the `base_url` of the profile named by `--profile` (else `REELHOUSE_PROFILE`);
 * 4. the server running from this data directory (`server.json`, written by `reelhouse serve`);
 * 5. `PUBLIC_API_URL`;
 * 6. the default, `https://localhost:<API_PORT>` (or HOST when it is not a wildcard).
 * Every command that talks to the service uses this one order.
 */
export function resolveServerAddress (flags: { baseUrl?: string, profile?: string }, env: CliEnv, config: Config): ServerAddress {
  if (flags.baseUrl !== undefined) return { url: checked(flags.baseUrl, '--base-url'), source: '--base-url' }
  const fromEnv = nonEmpty(env.REELHOUSE_URL)
  if (fromEnv !== undefined) return { url: checked(fromEnv, 'REELHOUSE_URL'), source: 'REELHOUSE_URL' }
  const profile = flags.profile ?? nonEmpty(env.REELHOUSE_PROFILE)
  if (profile !== undefined) {
    const file = profilesFilePath(env)
    const saved = readProfiles(file)
    const url = Object.hasOwn(saved, profile) ? saved[profile]?.base_url : undefined
    if (url !== undefined) return { url: checked(url, `the base_url of profile "${profile}"`), source: `profile "${profile}"` }
  }
  const running = readRunningServer(config.dataDir)
  if (running !== undefined) return { url: running.api_url, source: `the server running from ${config.dataDir} (pid ${running.pid}, ${RUNNING_SERVER_FILE})` }
  if (nonEmpty(env.PUBLIC_API_URL) !== undefined) return { url: config.publicApiUrl, source: 'PUBLIC_API_URL' }
  return { url: config.publicApiUrl, source: 'the default (HOST and API_PORT; no server is running from this data directory)' }
}

/** An absolute http(s) URL, without a trailing slash. */
export function checked (value: string, origin: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new CliError(`${origin} must be an absolute URL such as https://localhost:8443, not ${JSON.stringify(value)}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliError(`${origin} must be an http or https URL, not ${JSON.stringify(value)}`)
  return value.replace(/\/+$/, '')
}

function nonEmpty (value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}
