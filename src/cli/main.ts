import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Command, Option } from 'commander'
import { isUserRole, USER_ROLES } from '../auth/roles.ts'
import { ConfigError, loadConfig, ROLES, type ProcessRole } from '../config/index.ts'
import { DataDirLockedError } from '../server/data-dir-lock.ts'
import { signedPath } from '../signing/index.ts'
import { consoleLink } from './console-link.ts'
import { withCredentialOptions } from './credential-options.ts'
import { resolveCredentials, shellQuote, type CredentialFlags } from './credentials.ts'
import { registerProfileCommands } from './profile-commands.ts'
import { registerRequestCommands } from './request-commands.ts'
import { registerUploadCommand } from './upload-command.ts'

// `reelhouse get … | head -1`: once the reader is gone nobody is left to read an error, so stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

// The commands that start the service or open the database import it when they run, so that the
// light ones (sign, get, profile) start without loading the whole server.
const program = new Command('reelhouse').description('Reelhouse: media management and analytics service')

program.command('serve')
  .description('run the service (every role in one process unless --role is given)')
  .addOption(new Option('--role <role...>', 'roles to run').choices([...ROLES]))
  .action(async (options: { role?: ProcessRole[] }) => {
    const { serve, stopOnSignals } = await import('../server/serve.ts')
    stopOnSignals(await serve(loadConfig(), options.role ?? ROLES))
    console.log('Reelhouse is running; Ctrl-C stops it.')
  })

program.command('migrate').description('apply pending database migrations').action(async () => {
  const { migrateToLatest, openDatabase } = await import('../db/index.ts')
  const database = await openDatabase(loadConfig().databaseUrl)
  await migrateToLatest(database.db)
  await database.close()
  console.log('database is up to date')
})

program.command('accounts').command('create')
  .description('create an account with an administrator; prints its API key and secret once')
  .option('--name <name>', 'account name', 'New account')
  .action(async (options: { name: string }) => {
    const { createContext } = await import('../app/context.ts')
    const ctx = await createContext(loadConfig())
    const created = await ctx.services.accounts.create(options.name)
    console.log(JSON.stringify({ account: created.account, administrator: created.administrator }, null, 2))
    await ctx.close()
  })

program.command('users').command('create')
  .description('create a user in an account; prints its API key and secret once')
  .requiredOption('--account <id>', 'account id')
  .addOption(new Option('--role <role>', 'role').choices([...USER_ROLES]).makeOptionMandatory())
  .option('--name <name>', 'user name', 'API user')
  .action(async (options: { account: string, role: string, name: string }) => {
    const { createContext } = await import('../app/context.ts')
    const ctx = await createContext(loadConfig())
    const account = await ctx.accounts.findById(options.account)
    if (account === undefined || !isUserRole(options.role)) throw new Error(`account ${options.account} does not exist`)
    console.log(JSON.stringify(await ctx.services.users.createIn(account, { name: options.name, role: options.role }), null, 2))
    await ctx.close()
  })

withCredentialOptions(program.command('sign')
  .description('print a signed URL and a ready curl command')
  .argument('<method>', 'HTTP method')
  .argument('<path>', 'path with optional query, e.g. /v2/labels?limit=7')
  .option('--body <json>', 'request body')
  .option('--expires <unix>', 'expiry (Unix seconds); default now + 15 minutes')
  .option('--base-url <url>', 'service base URL', 'https://localhost:8443'))
  .action((method: string, path: string, options: CredentialFlags & { body?: string, expires?: string, baseUrl: string }) => {
    const config = loadConfig()
    const credentials = resolveCredentials(options, process.env, config.dataDir)
    const upper = method.toUpperCase()
    const url = options.baseUrl.replace(/\/$/, '') + signedPath({
      ...credentials, method: upper, path, body: options.body, expires: options.expires === undefined ? undefined : Number(options.expires)
    })
    const certFile = join(config.dataDir, 'tls-cert.pem')
    const tlsOption = url.startsWith('https:') && existsSync(certFile) ? ` --cacert ${shellQuote(certFile)}` : ''
    const bodyOption = options.body === undefined ? '' : ` --data-binary ${shellQuote(options.body)}`
    console.log(url)
    console.log(`curl -sS -X ${upper}${tlsOption}${bodyOption} ${shellQuote(url)}`)
  })

withCredentialOptions(program.command('console')
  .description('print a link that signs you in to the web console (your key and secret, in the link\'s fragment)')
  .option('--base-url <url>', 'the service\'s address (default PUBLIC_API_URL)'))
  .action((options: CredentialFlags & { baseUrl?: string }) => {
    const config = loadConfig()
    console.log(consoleLink(options.baseUrl ?? config.publicApiUrl, resolveCredentials(options, process.env, config.dataDir)))
  })

registerRequestCommands(program)
registerProfileCommands(program)
registerUploadCommand(program)

program.command('reindex')
  .description('rebuild the search indices: delete them, queue every resource, follow the pending count to zero')
  .option('--account <id>', 'rebuild this account\'s index only')
  .option('--indexer-url <url>', 'the indexing service (default from INDEXER_HOST/INDEXER_PORT)')
  .option('--timeout <seconds>', 'give up after this long (0: wait until done)', '0')
  .action(async (options: { account?: string, indexerUrl?: string, timeout: string }) => {
    const { reindexCommand } = await import('../indexer/index.ts')
    await reindexCommand(loadConfig(), options)
  })

program.parseAsync().catch((error: unknown) => {
  // These messages are written for the operator whole; anything else gets the command's name in front.
  const plain = error instanceof ConfigError || error instanceof DataDirLockedError
  console.error(plain ? (error as Error).message : `reelhouse: ${(error as Error).message}`)
  process.exit(1)
})
