import type { UserRole } from './roles.ts'

/**
 * Who makes a request: the user a verified signature names, with its account and role. Every service
 * call takes it first; repositories take its `accountId` first, so no query can leave the account.
 */
export interface Caller {
  accountId: string
  accountCode: string
  userId: string
  role: UserRole
}
