import type { Command } from 'commander'
import type { Asset, Label, Player, User } from 'reelhouse/client'
import { CliError, UsageError } from './cli-error.ts'
import { confirm } from './confirm.ts'
import { connect, withServerOptions, type ServerFlags } from './connection.ts'
import { parseBody } from './request-commands.ts'
import { clock, printList, printOne, type Column } from './table.ts'

export interface OutputFlags extends ServerFlags { json?: boolean }

const JSON_HELP = 'print JSON (one object per line for a list) even on a terminal; a pipe or a file gets JSON anyway'

/** A resource command: the server and credential options, `--json`, and examples in its help. */
export function resourceCommand (parent: Command, name: string, description: string, examples: string[]): Command {
  const command = parent.command(name).description(description).option('--json', JSON_HELP)
  withServerOptions(command)
  return command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  ${line}`).join('\n')}`)
}

const ASSET_COLUMNS: Array<Column<Asset>> = [
  { heading: 'embed code', value: (asset) => asset.embed_code },
  { heading: 'type', value: (asset) => asset.asset_type },
  { heading: 'status', value: (asset) => asset.status },
  { heading: 'duration', value: (asset) => clock(asset.duration) },
  { heading: 'created', value: (asset) => asset.created_at.slice(0, 16).replace('T', ' ') },
  { heading: 'name', value: (asset) => asset.name }
]

/**
 * `reelhouse assets list|get|update|delete`, `labels tree`, `players list`, `users list`: the everyday
 * reads and writes by name, beside the raw `get PATH`. A table on a terminal, JSON for a program;
 * lists follow every page (docs/cli.md, "Resource commands").
 */
export function registerResourceCommands (program: Command): void {
  const assets = program.command('assets').description('list, show, change and delete assets')

  resourceCommand(assets, 'list', 'list the assets (every page), newest first unless --orderby says otherwise', [
    'reelhouse assets list', 'reelhouse assets list --where "status=\'live\' AND asset_type=\'audio\'"', 'reelhouse assets list --json | jq -r .embed_code'
  ])
    .option('--where <expression>', 'filter, e.g. "status=\'live\'" (docs/search-and-indexing.md)')
    .option('--orderby <order>', 'e.g. "name ASC"')
    .option('--limit <n>', 'stop after this many assets')
    .option('--page-size <n>', 'assets per request, 1–500 (default: the server\'s, 100)')
    .action(async (flags: OutputFlags & { where?: string, orderby?: string, limit?: string, pageSize?: string }) => {
      const limit = flags.limit === undefined ? undefined : positive('--limit', flags.limit)
      const pageSize = flags.pageSize === undefined ? (limit === undefined ? undefined : Math.min(limit, 500)) : positive('--page-size', flags.pageSize)
      const { client } = connect(flags)
      const list = client.assets.list({ where: flags.where, orderby: flags.orderby as never, limit: pageSize })
      await printList(take(list, limit), ASSET_COLUMNS, flags, 'asset')
    })

  resourceCommand(assets, 'get', 'show one asset', ['reelhouse assets get 3Zm9…', 'reelhouse assets get 3Zm9… --json | jq .stream_urls'])
    .argument('<id>', 'the embed code (or external_id)')
    .action(async (id: string, flags: OutputFlags) => {
      printOne(await connect(flags).client.assets.get(id), flags)
    })

  resourceCommand(assets, 'update', 'change some of an asset\'s fields (PATCH); prints the asset', [
    'reelhouse assets update 3Zm9… --name "Trailer (final)"', 'reelhouse assets update 3Zm9… --status paused', 'reelhouse assets update 3Zm9… --body \'{"description": "…"}\''
  ])
    .argument('<id>', 'the embed code (or external_id)')
    .option('--name <name>', 'the new name')
    .option('--description <text>', 'the new description')
    .option('--status <status>', 'live or paused')
    .option('--body <json>', 'any other fields, as JSON (the flags above win)')
    .action(async (id: string, flags: OutputFlags & { name?: string, description?: string, status?: string, body?: string }) => {
      const fields = { ...(flags.body === undefined ? {} : parseBody(flags.body) as object) } as Record<string, unknown>
      for (const name of ['name', 'description', 'status'] as const) if (flags[name] !== undefined) fields[name] = flags[name]
      if (Object.keys(fields).length === 0) throw new CliError('nothing to change: give --name, --description, --status or --body')
      printOne(await connect(flags).client.assets.update(id, fields as never), flags)
    })

  resourceCommand(assets, 'delete', 'delete an asset (asks first on a terminal; --yes does not ask)', ['reelhouse assets delete 3Zm9…', 'reelhouse assets delete 3Zm9… --yes'])
    .argument('<id>', 'the embed code (or external_id)')
    .option('-y, --yes', 'delete without asking (needed when not at a terminal)')
    .action(async (id: string, flags: OutputFlags & { yes?: boolean }) => {
      const { client } = connect(flags)
      // Read first: the question names what is deleted, and a wrong id fails before anyone is asked.
      const asset = await client.assets.get(id)
      if (!await confirm(`Delete asset ${asset.embed_code} "${asset.name}" (${asset.asset_type}, ${asset.status})?`, flags.yes)) {
        process.stderr.write('Not deleted.\n')
        return
      }
      await client.assets.delete(asset.embed_code)
      process.stderr.write(`Deleted asset ${asset.embed_code}.\n`)
    })

  const labels = program.command('labels').description('the account\'s labels')
  resourceCommand(labels, 'tree', 'every label, as a tree of full paths', ['reelhouse labels tree', 'reelhouse labels tree --json | jq -r .full_name'])
    .action(async (flags: OutputFlags) => {
      const all: Label[] = []
      for await (const label of connect(flags).client.labels.list()) all.push(label)
      all.sort((a, b) => a.full_name.localeCompare(b.full_name))
      if (flags.json === true || process.stdout.isTTY !== true) {
        for (const label of all) console.log(JSON.stringify(label))
        return
      }
      if (all.length === 0) console.log('No labels.')
      for (const label of all) console.log(`${'  '.repeat(label.full_name.split('/').length - 2)}${label.name}  ${label.id}`)
    })

  const players = program.command('players').description('the account\'s players')
  resourceCommand(players, 'list', 'list the players (every page)', ['reelhouse players list'])
    .action(async (flags: OutputFlags) => {
      const columns: Array<Column<Player>> = [
        { heading: 'id', value: (player) => player.id },
        { heading: 'default', value: (player) => player.is_default ? 'yes' : '' },
        { heading: 'name', value: (player) => player.name }
      ]
      await printList(connect(flags).client.players.list(), columns, flags, 'player')
    })

  const users = program.commands.find((command) => command.name() === 'users') ?? program.command('users')
  resourceCommand(users, 'list', 'list the users of your account (administrators only), without secrets', ['reelhouse users list'])
    .action(async (flags: OutputFlags) => {
      const columns: Array<Column<User>> = [
        { heading: 'id', value: (user) => user.id },
        { heading: 'role', value: (user) => user.role },
        { heading: 'api key', value: (user) => user.api_key },
        { heading: 'name', value: (user) => user.name }
      ]
      await printList(connect(flags).client.users.list(), columns, flags, 'user')
    })
}

export async function * take<T> (items: AsyncIterable<T>, limit: number | undefined): AsyncIterable<T> {
  let count = 0
  if (limit === 0) return
  for await (const item of items) {
    yield item
    if (limit !== undefined && ++count >= limit) return
  }
}

export function positive (flag: string, value: string): number {
  const number = Number(value)
  if (!Number.isSafeInteger(number) || number < 1) throw new UsageError(`${flag} must be a positive integer, not ${value}`)
  return number
}
