import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Command, Option } from 'commander'
import { createAccount } from '../accounts/accounts-service.ts'
import { createContext } from '../app/context.ts'
import { isUserRole, USER_ROLES } from '../auth/roles.ts'
import { ConfigError, loadConfig, ROLES, type ProcessRole } from '../config/index.ts'
import { migrateToLatest, openDatabase } from '../db/index.ts'
import { reindexCommand } from '../indexer/index.ts'
import { serve } from '../server/serve.ts'
import { signedPath } from '../signing/index.ts'
import { createUser } from '../users/index.ts'
import { resolveCredentials, shellQuote } from './credentials.ts'
import { registerRequestCommands } from './request-commands.ts'

const program = new Command('reelhouse').description('Reelhouse: media management and analytics service')

program.command('serve')
  .description('run the service (every role in one process unless --role is given)')
  .addOption(new Option('--role <role...>', 'roles to run').choices([...ROLES]))
  .action(async (options: { role?: ProcessRole[] }) => {
    const server = await serve(loadConfig(), options.role ?? ROLES)
    const stop = (): void => { server.close().then(() => process.exit(0), () => process.exit(1)) }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })

program.command('migrate').description('apply pending database migrations').action(async () => {
  const database = await openDatabase(loadConfig().databaseUrl)
  await migrateToLatest(database.db)
  await database.close()
  console.log('database is up to date')
})

program.command('accounts').command('create')
  .description('create an account with an administrator; prints its API key and secret once')
  .option('--name <name>', 'account name', 'New account')
  .action(async (options: { name: string }) => {
    const ctx = await createContext(loadConfig())
    const created = await createAccount(ctx, options.name)
    console.log(JSON.stringify({ account: created.account, administrator: created.administrator }, null, 2))
    await ctx.close()
  })

program.command('users').command('create')
  .description('create a user in an account; prints its API key and secret once')
  .requiredOption('--account <id>', 'account id')
  .addOption(new Option('--role <role>', 'role').choices([...USER_ROLES]).makeOptionMandatory())
  .option('--name <name>', 'user name', 'API user')
  .action(async (options: { account: string, role: string, name: string }) => {
    const ctx = await createContext(loadConfig())
    const account = await ctx.accounts.findById(options.account)
    if (account === undefined || !isUserRole(options.role)) throw new Error(`account ${options.account} does not exist`)
    console.log(JSON.stringify(await createUser(ctx, account, { name: options.name, role: options.role }), null, 2))
    await ctx.close()
  })

program.command('sign')
  .description('print a signed URL and a ready curl command')
  .argument('<method>', 'HTTP method')
  .argument('<path>', 'path with optional query, e.g. /v2/labels?limit=7')
  .option('--body <json>', 'request body')
  .option('--expires <unix>', 'expiry (Unix seconds); default now + 15 minutes')
  .option('--base-url <url>', 'service base URL', 'https://localhost:8443')
  .option('--api-key <key>', 'API key (default: REELHOUSE_API_KEY or the first-start credentials)')
  .option('--secret <secret>', 'secret (default: REELHOUSE_SECRET or the first-start credentials)')
  .action((method: string, path: string, options: { body?: string, expires?: string, baseUrl: string, apiKey?: string, secret?: string }) => {
    const config = loadConfig()
    const credentials = resolveCredentials(options, config.dataDir)
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

registerRequestCommands(program)

program.command('reindex')
  .description('rebuild the search indices: delete them, queue every resource, follow the pending count to zero')
  .option('--account <id>', 'rebuild this account\'s index only')
  .option('--indexer-url <url>', 'the indexing service (default from INDEXER_HOST/INDEXER_PORT)')
  .option('--timeout <seconds>', 'give up after this long (0: wait until done)', '0')
  .action(async (options: { account?: string, indexerUrl?: string, timeout: string }) => {
    await reindexCommand(loadConfig(), options)
  })

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `reelhouse: ${(error as Error).message}`)
  process.exit(1)
})
