import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { rootCertificates } from 'node:tls'
import type { Command } from 'commander'
import { Reelhouse } from 'reelhouse/client'
import { fetchWithCa } from 'reelhouse/client/node'
import { loadCliEnv, loadConfig, type Config } from '../config/index.ts'
import { withCredentialOptions } from './credential-options.ts'
import { resolveCredentials, type CredentialFlags, type Credentials } from './credentials.ts'
import { trace } from './output.ts'
import { resolveServerAddress, type ServerAddress } from './server-address.ts'

export interface ServerFlags extends CredentialFlags { baseUrl?: string }

export const ADDRESS_HELP = `
The server's address comes from the first of these that is given:
  1. --base-url URL
  2. REELHOUSE_URL
  3. the base_url of the profile (--profile or REELHOUSE_PROFILE)
  4. the server running from the data directory (REELHOUSE_DATA_DIR, its server.json)
  5. PUBLIC_API_URL
  6. https://localhost:API_PORT (8443 unless API_PORT is set)`

/** `--base-url` and the credential options, with the order each is looked up in. */
export function withServerOptions (command: Command): Command {
  return withCredentialOptions(command.option('--base-url <url>', 'the service\'s address (see below)')).addHelpText('after', ADDRESS_HELP)
}

/** A signed client for the address and credentials the flags and the environment name. */
export interface Connection {
  client: Reelhouse
  address: ServerAddress
  credentials: Credentials
  config: Config
  /** The data directory's self-signed certificate, trusted beside the usual authorities, when there is one. */
  certFile: string | undefined
  /** The client's fetch (that certificate trusted, `--verbose` tracing), for a body to read as a stream. */
  fetch: (url: string, init?: RequestInit) => Promise<Response>
}

export function connect (flags: ServerFlags): Connection {
  const config = loadConfig()
  const env = loadCliEnv()
  const credentials = resolveCredentials(flags, env, config.dataDir)
  const address = resolveServerAddress(flags, env, config)
  lastRequest.address = address
  trace(`* server ${address.url} (from ${address.source})`)
  const file = join(config.dataDir, 'tls-cert.pem')
  const certFile = existsSync(file) ? file : undefined
  // The first start's self-signed certificate is trusted when it is there (docs/client.md), and so are
  // the usual authorities, so that a profile naming a server with a public certificate works too.
  const fetch = fetchWithCa(certFile === undefined ? {} : { ca: [...rootCertificates, readFileSync(certFile)] })
  const tracedFetch = traced(fetch)
  const client = new Reelhouse({ baseUrl: address.url, ...credentials, fetch: tracedFetch })
  return { client, address, credentials, config, certFile, fetch: tracedFetch }
}

/** The last request sent, for an error report (`--verbose` prints it). */
export const lastRequest: { line?: string, address?: ServerAddress } = {}

/** A fetch that remembers each request line, and prints it and the answer's status with `--verbose`. */
function traced (fetch: (url: string, init?: RequestInit) => Promise<Response>): (url: string, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const line = `${init?.method ?? 'GET'} ${url}`
    lastRequest.line = line
    trace(`> ${line}`)
    const started = performance.now()
    const response = await fetch(url, init)
    trace(`< ${response.status} ${response.statusText} (${Math.round(performance.now() - started)} ms${response.headers.has('x-request-id') ? `, request id ${response.headers.get('x-request-id')}` : ''})`)
    return response
  }
}

/**
 * A path as the API takes it: `v2/labels` gains its leading slash, and a whole URL (pasted from a
 * `next_page` or a browser) gives its path and query.
 */
export function apiPath (path: string): string {
  if (/^https?:\/\//i.test(path)) {
    const url = new URL(path)
    return url.pathname + url.search
  }
  return path.startsWith('/') ? path : `/${path}`
}
