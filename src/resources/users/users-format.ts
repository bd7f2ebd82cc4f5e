import type { UserRole } from '../../auth/roles.ts'
import { apiTime } from '../../lib/clock.ts'
import type { UserRow } from './users-repository.ts'
import type { ApiUser } from './users-schemas.ts'

/** The one mapping from a users row to its API shape; the secret never leaves through it. */
export function toApiUser (row: UserRow): ApiUser {
  return {
    id: row.id,
    name: row.name,
    role: row.role as UserRole,
    api_key: row.api_key,
    created_at: apiTime(row.created_at) as string,
    updated_at: apiTime(row.updated_at) as string
  }
}
