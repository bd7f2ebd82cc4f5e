import type { UserRole, Permission } from '../auth/roles.ts'
import type { QueryPairs } from '../signing/index.ts'

/** Who made a signed request. Set by the authentication hook; every service call takes it. */
export interface Auth {
  accountId: string
  accountCode: string
  userId: string
  role: UserRole
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The decoded query pairs as received (signature input; duplicates visible). */
    queryPairs: QueryPairs | undefined
    /** Raw body bytes as received, before JSON parsing. */
    rawBody: Buffer | undefined
    auth: Auth | undefined
  }
  interface FastifyContextConfig {
    /** Unsigned route (health, docs, event collection, public feeds). */
    public?: boolean
    /** The role permission a signed route needs (product.md §2). */
    permission?: Permission
    /** Keep the body as raw bytes (uploads, NDJSON import) instead of parsing JSON. */
    rawBody?: boolean
  }
}

/** The authenticated caller; only called on signed routes, where the hook has set it. */
export function authOf (request: { auth: Auth | undefined }): Auth {
  if (request.auth === undefined) throw new Error('route is not authenticated')
  return request.auth
}
