import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Argument, Command, Option } from 'commander'
import { loadConfig, ROLES, type ProcessRole } from '../config/index.ts'
import { registerAdminCommands } from './admin-commands.ts'
import { completionScript } from './completion.ts'
import { errorReport } from './error-report.ts'
import { options } from './output.ts'
import { registerProfileCommands } from './profile-commands.ts'
import { registerRequestCommands } from './request-commands.ts'
import { registerResourceCommands } from './resource-commands.ts'
import { registerSignCommands } from './sign-commands.ts'
import { registerUploadCommand } from './upload-command.ts'
import { registerWebhookCommands } from './webhook-commands.ts'
import { registerPlaybackCommands } from './playback-commands.ts'
import { registerExportCommand } from './export-command.ts'

// `reelhouse get … | head -1`: once the reader is gone nobody is left to read an error, so stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }

// The commands that start the service or open the database import it when they run, so that the
// light ones (sign, get, profile) start without loading the whole server.
const program = new Command('reelhouse')
  .description('Reelhouse: media management and analytics service')
  .version(version, '-V, --version', 'print the version')
  .option('-v, --verbose', 'print each request and answer on stderr, and the request and signed string of an error')
  .addHelpText('after', `
Examples:
  reelhouse serve                             run everything in one process (./data)
  reelhouse get v2/users/me                   who am I? (signed with the first start's credentials)
  reelhouse assets list                       the account's assets, as a table
  reelhouse upload trailer.mp4 --label /Films/Trailers
  reelhouse sign GET /v2/labels --expires 1h  a signed URL and a curl command
  reelhouse completion bash >> ~/.bashrc       tab completion

Every command's own --help lists its options and examples; docs/cli.md has the whole story.`)
  // A usage error (unknown option, missing argument, a value the command cannot take) exits with 2.
  .exitOverride((error) => { process.exit(error.exitCode === 0 ? 0 : 2) })
  .hook('preAction', (_program, command) => { options.verbose = command.optsWithGlobals().verbose === true })

program.command('serve')
  .description('run the service (every role in one process unless --role is given)')
  .addOption(new Option('--role <role...>', 'roles to run').choices([...ROLES]))
  .action(async (flags: { role?: ProcessRole[] }) => {
    const { serve, stopOnSignals } = await import('../server/serve.ts')
    stopOnSignals(await serve(loadConfig(), flags.role ?? ROLES))
    console.log('Reelhouse is running; Ctrl-C stops it.')
  })

program.command('migrate').description('apply pending database migrations').action(async () => {
  const { migrateToLatest, openDatabase } = await import('../db/index.ts')
  const database = await openDatabase(loadConfig().databaseUrl)
  await migrateToLatest(database.db)
  await database.close()
  console.log('database is up to date')
})

registerAdminCommands(program)
registerSignCommands(program)
registerRequestCommands(program)
registerProfileCommands(program)
registerUploadCommand(program)
registerExportCommand(program)
registerResourceCommands(program)
registerWebhookCommands(program)
registerPlaybackCommands(program)

program.command('reindex')
  .description('rebuild the search indices: delete them, queue every resource, follow the pending count to zero')
  .option('--account <id>', 'rebuild this account\'s index only')
  .option('--indexer-url <url>', 'the indexing service (default from INDEXER_HOST/INDEXER_PORT)')
  .option('--timeout <seconds>', 'give up after this long (0: wait until done)', '0')
  .action(async (flags: { account?: string, indexerUrl?: string, timeout: string }) => {
    const { reindexCommand } = await import('../indexer/index.ts')
    await reindexCommand(loadConfig(), flags)
  })

program.command('completion')
  .description('print a shell completion script: bash, zsh or fish')
  .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
  .addHelpText('after', `
Examples:
  source <(reelhouse completion bash)                                  # now; add it to ~/.bashrc to keep it
  reelhouse completion zsh > "\${fpath[1]}/_reelhouse"                  # zsh, from the next shell on
  reelhouse completion fish > ~/.config/fish/completions/reelhouse.fish`)
  .action((shell: string) => { process.stdout.write(completionScript(shell, program)) })

program.parseAsync().catch((error: unknown) => {
  const { text, exitCode } = errorReport(error)
  console.error(text)
  process.exit(exitCode)
})
