import type { Command } from 'commander'
import { UsageError } from './cli-error.ts'
import { apiPath, connect, withServerOptions, type ServerFlags } from './connection.ts'

interface RequestOptions extends ServerFlags { body?: string, all?: boolean }

/** `reelhouse get|post|put|patch|delete PATH`: a signed request, JSON out; `get --all` follows next_page. */
export function registerRequestCommands (program: Command): void {
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    const command = program.command(method)
      .description(`signed ${method.toUpperCase()} request; prints the JSON answer`)
      .argument('<path>', 'path with optional query, e.g. /v2/labels?limit=7 (the leading slash may be left out)')
    withServerOptions(command)
    if (method === 'get') command.option('--all', 'follow next_page and print every item, one JSON per line')
    else command.option('--body <json>', 'request body (JSON)')
    command.addHelpText('after', method === 'get'
      ? '\nExamples:\n  reelhouse get v2/labels\n  reelhouse get "/v2/assets?where=status=\'live\'&limit=5"\n  reelhouse get /v2/labels --all | head -3'
      : `\nExamples:\n  reelhouse ${method} /v2/labels${method === 'delete' ? '/LABEL_ID' : ' --body \'{"name": "Trailers"}\''}`)
    command.action(async (path: string, options: RequestOptions) => {
      const body = options.body === undefined ? undefined : parseBody(options.body)
      const { client } = connect(options)
      if (options.all === true) {
        for await (const item of client.paginate(apiPath(path))) console.log(JSON.stringify(item))
        return
      }
      console.log(JSON.stringify(await client.request(method.toUpperCase(), apiPath(path), { body }), null, 2))
    })
  }
}

/** `--body`, read before anything is sent: a typo is a usage error, not a request. */
export function parseBody (text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new UsageError(`--body is not valid JSON: ${(error as Error).message}`)
  }
}
