import type { Kysely } from 'kysely'
import type { Caller } from '../../auth/caller.ts'
import type { UserRole } from '../../auth/roles.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import { noteCredentialChange, type Database } from '../../db/index.ts'
import type { DB } from '../../db/tables/index.ts'
import { ApiError } from '../../errors/api-error.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { alnumId, hexId } from '../../lib/ids.ts'
import { toPage, type Page, type PageParams } from '../../paging/index.ts'
import type { SecretBox } from '../../secrets/index.ts'
import { positionIn } from '../kit/crud-repository.ts'
import { finder } from '../kit/finder.ts'
import { toApiUser } from './users-format.ts'
import { createUsersRepository, USER_ORDER, type UserRow } from './users-repository.ts'
import type { ApiMe, ApiUser, ApiUserWithSecret, NewUser, UserInput } from './users-schemas.ts'

export interface UsersDeps {
  database: Database
  clock: Clock
  /** Encrypts secrets at rest. */
  secrets: SecretBox
}

/** The account a new user joins: its id, and its code, which starts every API key of the account. */
export interface AccountRef { id: string, code: string }

/**
 * Users, their keys and roles. Role changes and deletions hold the account's lock, so an account always
 * keeps an administrator however requests race.
 */
export function createUsersService ({ database, clock, secrets }: UsersDeps) {
  const users = createUsersRepository(database.db)
  const find = finder(users, (id) => new ApiError('user_not_found', `User ${id} does not exist.`))
  const position = positionIn<UserRow>(USER_ORDER)

  async function assertNotLastAdministrator (accountId: string, trx: Kysely<DB>): Promise<void> {
    if (await users.countAdministrators(accountId, trx) <= 1) {
      throw new ApiError('last_administrator', 'An account must keep at least one administrator.')
    }
  }

  /** Creates a user with a fresh API key `<account_code>.<random>` and a 40-character secret. */
  async function createIn (account: AccountRef, input: { name: string, role: UserRole }, trx: Kysely<DB> = database.db): Promise<ApiUserWithSecret> {
    const secret = alnumId(40)
    const now = storedTime(clock.now())
    const row: UserRow = {
      id: hexId(),
      account_id: account.id,
      api_key: `${account.code}.${alnumId(8)}`,
      secret_enc: secrets.encrypt(secret),
      name: input.name,
      role: input.role,
      created_at: now,
      updated_at: now
    }
    await users.insert(account.id, row, trx)
    return { ...toApiUser(row), secret }
  }

  return {
    createIn,
    async list (caller: Caller, page: PageParams): Promise<Page<ApiUser>> {
      return toPage(await users.page(caller.accountId, page), page, position, toApiUser)
    },
    async get (caller: Caller, id: string): Promise<ApiUser> {
      return toApiUser(await find(caller.accountId, id))
    },
    /** The caller itself, whatever its role. */
    async me (caller: Caller): Promise<ApiMe> {
      const row = await users.findWithAccount(caller.accountId, caller.userId)
      if (row === undefined) throw new ApiError('user_not_found', `User ${caller.userId} does not exist.`)
      return { id: row.id, name: row.name, role: row.role as UserRole, account: { id: row.account_id, code: row.account_code, name: row.account_name } }
    },
    async create (caller: Caller, input: NewUser): Promise<ApiUserWithSecret> {
      return await withAccountLock(database, caller.accountId, async (trx) => await createIn({ id: caller.accountId, code: caller.accountCode }, input, trx))
    },
    /** PATCH; users have no PUT. */
    async update (caller: Caller, id: string, input: UserInput): Promise<ApiUser> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller.accountId, id, trx)
        if (before.role === 'administrator' && input.role !== undefined && input.role !== 'administrator') {
          await assertNotLastAdministrator(caller.accountId, trx)
        }
        const changes = { ...input, updated_at: storedTime(clock.now()) }
        await users.update(caller.accountId, id, changes, trx)
        if (input.role !== undefined && input.role !== before.role) noteCredentialChange(trx, id)
        return toApiUser({ ...before, ...changes })
      })
    },
    async remove (caller: Caller, id: string): Promise<Record<string, never>> {
      await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller.accountId, id, trx)
        if (before.role === 'administrator') await assertNotLastAdministrator(caller.accountId, trx)
        await users.delete(caller.accountId, id, trx)
        noteCredentialChange(trx, id)
      })
      return {}
    },
    /** A new secret; the old one stops working at once (the next request reads the new ciphertext). */
    async rotateSecret (caller: Caller, id: string): Promise<ApiUserWithSecret> {
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const before = await find(caller.accountId, id, trx)
        const secret = alnumId(40)
        const changes = { secret_enc: secrets.encrypt(secret), updated_at: storedTime(clock.now()) }
        await users.update(caller.accountId, id, changes, trx)
        noteCredentialChange(trx, id)
        return { ...toApiUser({ ...before, ...changes }), secret }
      })
    }
  }
}

export type UsersService = ReturnType<typeof createUsersService>
