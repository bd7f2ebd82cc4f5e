import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Command } from 'commander'
import { Reelhouse } from 'reelhouse/client'
import { fetchWithCa } from 'reelhouse/client/node'
import { loadConfig } from '../config/index.ts'
import { withCredentialOptions } from './credential-options.ts'
import { resolveCredentials, type CredentialFlags } from './credentials.ts'

interface RequestOptions extends CredentialFlags { body?: string, all?: boolean, baseUrl: string }

/** `reelhouse get|post|put|patch|delete PATH`: a signed request, JSON out; `get --all` follows next_page. */
export function registerRequestCommands (program: Command): void {
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    const command = program.command(method)
      .description(`signed ${method.toUpperCase()} request; prints the JSON answer`)
      .argument('<path>', 'path with optional query, e.g. /v2/labels?limit=7')
      .option('--base-url <url>', 'service base URL', 'https://localhost:8443')
    withCredentialOptions(command)
    if (method === 'get') command.option('--all', 'follow next_page and print every item, one JSON per line')
    else command.option('--body <json>', 'request body (JSON)')
    command.action(async (path: string, options: RequestOptions) => {
      const config = loadConfig()
      const certFile = join(config.dataDir, 'tls-cert.pem')
      // The first start's self-signed certificate is trusted when it is there (docs/client.md).
      const client = new Reelhouse({
        baseUrl: options.baseUrl,
        ...resolveCredentials(options, process.env, config.dataDir),
        ...(existsSync(certFile) ? { fetch: fetchWithCa({ ca: readFileSync(certFile) }) } : {})
      })
      if (options.all === true) {
        for await (const item of client.paginate(path)) console.log(JSON.stringify(item))
        return
      }
      const body = options.body === undefined ? undefined : JSON.parse(options.body) as unknown
      console.log(JSON.stringify(await client.request(method.toUpperCase(), path, { body }), null, 2))
    })
  }
}
