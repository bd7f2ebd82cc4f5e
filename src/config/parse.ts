/** Small typed readers for environment variables. Each failure names the variable and what it expected. */
export class ConfigError extends Error {
  constructor (variable: string, expected: string, got: string) {
    super(`Invalid configuration: ${variable} must be ${expected} (got ${JSON.stringify(got)}).`)
    this.name = 'ConfigError'
  }
}

export type Env = Record<string, string | undefined>

function raw (env: Env, name: string): string | undefined {
  const value = env[name]
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

export function str (env: Env, name: string, fallback: string): string
export function str (env: Env, name: string): string | undefined
export function str (env: Env, name: string, fallback?: string): string | undefined {
  return raw(env, name) ?? fallback
}

export function int (env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name)
  if (value === undefined) return fallback
  const n = Number(value)
  if (!/^-?\d+$/.test(value) || n < min || n > max) throw new ConfigError(name, `an integer from ${min} to ${max}`, value)
  return n
}

export function bool (env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name)
  if (value === undefined) return fallback
  const lower = value.toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true
  if (['0', 'false', 'no', 'off'].includes(lower)) return false
  throw new ConfigError(name, 'a boolean (true/false, 1/0, yes/no, on/off)', value)
}

export function oneOf<T extends string> (env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = raw(env, name)
  if (value === undefined) return fallback
  if (!(allowed as readonly string[]).includes(value)) throw new ConfigError(name, `one of ${allowed.join(', ')}`, value)
  return value as T
}

export function url (env: Env, name: string, protocols: readonly string[]): string | undefined {
  const value = raw(env, name)
  if (value === undefined) return undefined
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw new ConfigError(name, `a URL (${protocols.join(', ')})`, redactedUrl(value))
  }
  if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) throw new ConfigError(name, `a URL with scheme ${protocols.join(' or ')}`, redactedUrl(value))
  return value
}

/**
 * An absolute http(s) address the service is reached at (behind a proxy, its public name), without
 * credentials, query or fragment; returned without a trailing slash so a path can follow it.
 */
export function publicUrl (env: Env, name: string, fallback: string): string {
  const value = url(env, name, ['http', 'https']) ?? fallback
  const parsed = new URL(value)
  if (parsed.username !== '' || parsed.password !== '' || parsed.search !== '' || parsed.hash !== '') {
    throw new ConfigError(name, 'an http(s) URL without credentials, query or fragment', redactedUrl(value))
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '')
}

/** A URL as an error may quote it: never the password it may carry. */
export function redactedUrl (value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)[^@/]*@/i, '$1[redacted]@')
}
