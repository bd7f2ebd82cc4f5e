import type { Env } from './parse.ts'

/**
 * What the command-line client reads from its environment (docs/client.md): the credentials, the
 * profile, the server, and where the profiles file lives.
 */
export interface CliEnv {
  REELHOUSE_API_KEY?: string | undefined
  REELHOUSE_SECRET?: string | undefined
  REELHOUSE_PROFILE?: string | undefined
  REELHOUSE_URL?: string | undefined
  PUBLIC_API_URL?: string | undefined
  XDG_CONFIG_HOME?: string | undefined
  HOME?: string | undefined
}

export function loadCliEnv (env: Env = process.env): CliEnv {
  return {
    REELHOUSE_API_KEY: env.REELHOUSE_API_KEY,
    REELHOUSE_SECRET: env.REELHOUSE_SECRET,
    REELHOUSE_PROFILE: env.REELHOUSE_PROFILE,
    REELHOUSE_URL: env.REELHOUSE_URL,
    PUBLIC_API_URL: env.PUBLIC_API_URL,
    XDG_CONFIG_HOME: env.XDG_CONFIG_HOME,
    HOME: env.HOME
  }
}
