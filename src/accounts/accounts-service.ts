import { writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { AppContext } from '../app/context.ts'
import { alnumId, hexId } from '../lib/ids.ts'
import { storedTime } from '../lib/clock.ts'
import { createUser, type ApiUserWithSecret } from '../users/index.ts'

export interface CreatedAccount {
  account: { id: string, code: string, name: string }
  administrator: ApiUserWithSecret
}

/** A new account (provider) with its first administrator. The account code prefixes every API key. */
export async function createAccount (ctx: Pick<AppContext, 'db' | 'database' | 'users' | 'secrets' | 'clock' | 'accounts'>, name: string): Promise<CreatedAccount> {
  const account = { id: hexId(), code: alnumId(28), name, credits_per_minute: null, created_at: storedTime(ctx.clock.now()) }
  await ctx.accounts.insert(account)
  const administrator = await createUser(ctx, account, { name: 'Administrator', role: 'administrator' })
  return { account: { id: account.id, code: account.code, name }, administrator }
}

export const CREDENTIALS_FILE = 'admin-credentials.json'

/**
 * First start: when no account exists, create one with an administrator, and keep its key and secret
 * in an owner-only file in the data directory. Returns the new account, or undefined if one existed.
 */
export async function bootstrapFirstAccount (ctx: AppContext): Promise<CreatedAccount | undefined> {
  if (await ctx.accounts.count() > 0) return undefined
  const created = await createAccount(ctx, 'Default account')
  mkdirSync(ctx.config.dataDir, { recursive: true, mode: 0o700 })
  const file = join(ctx.config.dataDir, CREDENTIALS_FILE)
  writeFileSync(file, JSON.stringify({
    account_id: created.account.id,
    account_code: created.account.code,
    api_key: created.administrator.api_key,
    secret: created.administrator.secret
  }, null, 2) + '\n', { mode: 0o600 })
  return created
}
