import { Command, Option } from 'commander'
import { isUserRole, USER_ROLES } from '../auth/roles.ts'
import { loadConfig } from '../config/index.ts'
import { UsageError } from './cli-error.ts'

/**
 * `reelhouse accounts …` and `reelhouse users create`: commands that open the database directly, as
 * the operator of the installation (no API key needed), so they load the server's code when they run.
 */
export function registerAdminCommands (program: Command): void {
  const accounts = program.command('accounts')
    .description('create and change accounts, directly in the database (the operator\'s commands; no API key)')
  accounts.command('create')
    .description('create an account with an administrator; prints its API key and secret once')
    .option('--name <name>', 'account name', 'New account')
    .addHelpText('after', '\nExample:\n  reelhouse accounts create --name "Acme Films"')
    .action(async (options: { name: string }) => {
      const { createContext } = await import('../app/context.ts')
      const ctx = await createContext(loadConfig())
      try {
        const created = await ctx.services.accounts.create(options.name)
        console.log(JSON.stringify({ account: created.account, administrator: created.administrator }, null, 2))
      } finally {
        await ctx.close()
      }
    })

  accounts.command('update')
    .description('change an account: its credit allowance per minute; prints the account')
    .argument('<id>', 'the account id (GET /v2/account answers it)')
    .requiredOption('--credits-per-minute <n>', 'the credits it may spend each minute, 1 to 1000000000, or "default" for the server\'s CREDITS_PER_MINUTE')
    .addHelpText('after', '\nExamples:\n  reelhouse accounts update 5b1f0c2d… --credits-per-minute 5000\n  reelhouse accounts update 5b1f0c2d… --credits-per-minute default\n\nEach process reads allowances at most once a minute: the change takes effect within a minute.')
    .action(async (id: string, options: { creditsPerMinute: string }) => {
      const allowance = creditsPerMinute(options.creditsPerMinute)
      const { createContext } = await import('../app/context.ts')
      const ctx = await createContext(loadConfig())
      try {
        console.log(JSON.stringify(await ctx.services.accounts.setCreditsPerMinute(id, allowance), null, 2))
      } finally {
        await ctx.close()
      }
    })

  const users = program.command('users')
    .description('list the users of your account through the API, or create one directly in the database')
  users.command('create')
    .description('create a user in an account, directly in the database; prints its API key and secret once')
    .requiredOption('--account <id>', 'account id')
    .addOption(new Option('--role <role>', 'role').choices([...USER_ROLES]).makeOptionMandatory())
    .option('--name <name>', 'user name', 'API user')
    .addHelpText('after', '\nExample:\n  reelhouse users create --account 4f1c… --role read_only --name "Dashboards"')
    .action(async (options: { account: string, role: string, name: string }) => {
      const { createContext } = await import('../app/context.ts')
      const ctx = await createContext(loadConfig())
      try {
        const account = await ctx.accounts.findById(options.account)
        if (account === undefined || !isUserRole(options.role)) throw new Error(`account ${options.account} does not exist`)
        console.log(JSON.stringify(await ctx.services.users.createIn(account, { name: options.name, role: options.role }), null, 2))
      } finally {
        await ctx.close()
      }
    })
}

/** `--credits-per-minute`: a whole number within the server's own bound, or `default` (null: CREDITS_PER_MINUTE). */
function creditsPerMinute (value: string): number | null {
  if (value === 'default') return null
  const number = Number(value)
  if (!/^\d+$/.test(value) || number < 1 || number > 1_000_000_000) throw new UsageError(`--credits-per-minute must be a whole number from 1 to 1000000000, or default, not ${JSON.stringify(value)}`)
  return number
}
