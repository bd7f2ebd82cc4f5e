import type { AppContext } from '../app/context.ts'
import type { UserRole } from '../auth/roles.ts'
import { lockAccount } from '../db/lock.ts'
import { ApiError } from '../errors/api-error.ts'
import { alnumId, hexId } from '../lib/ids.ts'
import { storedTime } from '../lib/clock.ts'
import { toPage, type Page, type PageParams } from '../paging/index.ts'
import type { UserRow } from './users-repository.ts'
import { toApiUser, type ApiUser } from './users-format.ts'

export type UsersContext = Pick<AppContext, 'db' | 'database' | 'users' | 'secrets' | 'clock'>

export interface NewUser { name: string, role: UserRole }

/** A user with its secret: the only time the secret is shown (creation and rotation). */
export type ApiUserWithSecret = ApiUser & { secret: string }

export async function listUsers (ctx: UsersContext, accountId: string, page: PageParams): Promise<Page<ApiUser>> {
  const rows = await ctx.users.page(accountId, page)
  return toPage(rows, page, (row) => [row.id], toApiUser)
}

export async function getUser (ctx: UsersContext, accountId: string, userId: string): Promise<ApiUser> {
  return toApiUser(await mustFind(ctx, accountId, userId))
}

/** Creates a user with a fresh API key `<account_code>.<random>` and a 40-character secret. */
export async function createUser (ctx: UsersContext, account: { id: string, code: string }, input: NewUser): Promise<ApiUserWithSecret> {
  const secret = alnumId(40)
  const now = storedTime(ctx.clock.now())
  const row: Omit<UserRow, 'account_id'> = {
    id: hexId(),
    api_key: `${account.code}.${alnumId(8)}`,
    secret_enc: ctx.secrets.encrypt(secret),
    name: input.name,
    role: input.role,
    created_at: now,
    updated_at: now
  }
  await ctx.users.insert(account.id, row)
  return { ...toApiUser({ ...row, account_id: account.id }), secret }
}

export async function updateUser (ctx: UsersContext, accountId: string, userId: string, changes: Partial<NewUser>): Promise<ApiUser> {
  return await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, ctx.database.dialect, accountId)
    const before = await mustFind(ctx, accountId, userId, trx)
    const next = { ...changes, updated_at: storedTime(ctx.clock.now()) }
    if (before.role === 'administrator' && changes.role !== undefined && changes.role !== 'administrator') {
      await assertNotLastAdministrator(ctx, accountId, trx)
    }
    await ctx.users.update(accountId, userId, next, trx)
    return toApiUser({ ...before, ...next })
  })
}

export async function deleteUser (ctx: UsersContext, accountId: string, userId: string): Promise<Record<string, never>> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, ctx.database.dialect, accountId)
    const before = await mustFind(ctx, accountId, userId, trx)
    if (before.role === 'administrator') await assertNotLastAdministrator(ctx, accountId, trx)
    await ctx.users.delete(accountId, userId, trx)
  })
  return {}
}

/** New secret; the old one stops working at once (the next request reads the new ciphertext). */
export async function rotateSecret (ctx: UsersContext, accountId: string, userId: string): Promise<ApiUserWithSecret> {
  const before = await mustFind(ctx, accountId, userId)
  const secret = alnumId(40)
  const changes = { secret_enc: ctx.secrets.encrypt(secret), updated_at: storedTime(ctx.clock.now()) }
  await ctx.users.update(accountId, userId, changes)
  return { ...toApiUser({ ...before, ...changes }), secret }
}

async function mustFind (ctx: UsersContext, accountId: string, userId: string, trx = ctx.db): Promise<UserRow> {
  const row = await ctx.users.find(accountId, userId, trx)
  if (row === undefined) throw new ApiError('user_not_found', `User ${userId} does not exist.`)
  return row
}

async function assertNotLastAdministrator (ctx: UsersContext, accountId: string, trx: typeof ctx.db): Promise<void> {
  if (await ctx.users.countAdministrators(accountId, trx) <= 1) {
    throw new ApiError('last_administrator', 'An account must keep at least one administrator.')
  }
}

