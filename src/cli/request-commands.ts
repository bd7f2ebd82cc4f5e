import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Command } from 'commander'
import { ReelhouseClient } from '../client/index.ts'
import { loadConfig } from '../config/index.ts'
import { resolveCredentials } from './credentials.ts'

interface RequestOptions { body?: string, all?: boolean, baseUrl: string, apiKey?: string, secret?: string }

/** `reelhouse get|post|put|patch|delete PATH`: a signed request, JSON out; `get --all` follows next_page. */
export function registerRequestCommands (program: Command): void {
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    const command = program.command(method)
      .description(`signed ${method.toUpperCase()} request; prints the JSON answer`)
      .argument('<path>', 'path with optional query, e.g. /v2/labels?limit=7')
      .option('--base-url <url>', 'service base URL', 'https://localhost:8443')
      .option('--api-key <key>', 'API key (default: REELHOUSE_API_KEY or the first-start credentials)')
      .option('--secret <secret>', 'secret (default: REELHOUSE_SECRET or the first-start credentials)')
    if (method === 'get') command.option('--all', 'follow next_page and print every item, one JSON per line')
    else command.option('--body <json>', 'request body (JSON)')
    command.action(async (path: string, options: RequestOptions) => {
      const config = loadConfig()
      const certFile = join(config.dataDir, 'tls-cert.pem')
      const client = new ReelhouseClient({
        baseUrl: options.baseUrl,
        ...resolveCredentials(options, config.dataDir),
        ...(existsSync(certFile) ? { ca: readFileSync(certFile) } : {})
      })
      if (options.all === true) {
        for await (const item of client.list(path)) console.log(JSON.stringify(item))
        return
      }
      const body = options.body === undefined ? undefined : JSON.parse(options.body) as unknown
      console.log(JSON.stringify(await client.request(method.toUpperCase(), path, body), null, 2))
    })
  }
}
