import type { Command } from 'commander'
import { signedPath } from '../signing/index.ts'
import { consoleLink } from './console-link.ts'
import { apiPath, connect, withServerOptions, type ServerFlags } from './connection.ts'
import { shellQuote } from './credentials.ts'
import { parseExpires } from './expires.ts'
import { parseBody } from './request-commands.ts'

/** `reelhouse sign METHOD PATH` and `reelhouse console`: commands that print a signed address without sending anything. */
export function registerSignCommands (program: Command): void {
  withServerOptions(program.command('sign')
    .description('print a signed URL and a ready curl command')
    .argument('<method>', 'HTTP method')
    .argument('<path>', 'path with optional query, e.g. /v2/labels?limit=7')
    .option('--body <json>', 'request body')
    .option('--expires <when>', 'a duration from now (90s, 15m, 1h, 2d) or Unix seconds; default 15m'))
    .addHelpText('after', '\nExamples:\n  reelhouse sign GET /v2/labels\n  reelhouse sign POST v2/labels --body \'{"name": "Trailers"}\' --expires 1h\n  eval "$(reelhouse sign GET /v2/users/me | tail -1)"')
    .action((method: string, path: string, options: ServerFlags & { body?: string, expires?: string }) => {
      const expires = options.expires === undefined ? undefined : parseExpires(options.expires)
      if (options.body !== undefined) parseBody(options.body)
      const { address, credentials, certFile } = connect(options)
      const upper = method.toUpperCase()
      const url = address.url + signedPath({ ...credentials, method: upper, path: apiPath(path), body: options.body, expires })
      const tlsOption = url.startsWith('https:') && certFile !== undefined ? ` --cacert ${shellQuote(certFile)}` : ''
      const bodyOption = options.body === undefined ? '' : ` --data-binary ${shellQuote(options.body)}`
      console.log(url)
      console.log(`curl -sS -X ${upper}${tlsOption}${bodyOption} ${shellQuote(url)}`)
    })

  withServerOptions(program.command('console')
    .description('print a link that signs you in to the web console (your key and secret, in the link\'s fragment)'))
    .action((options: ServerFlags) => {
      const { address, credentials } = connect(options)
      console.log(consoleLink(address.url, credentials))
    })
}
