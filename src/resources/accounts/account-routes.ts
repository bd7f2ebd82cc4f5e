import type { FastifyPluginAsync } from 'fastify'
import { callerOf } from '../../http/request-types.ts'
import { SignedOnly } from '../kit/crud-routes.ts'
import { Account, AccountErrors } from './accounts-schemas.ts'
import type { AccountsService } from './accounts-service.ts'

/** `GET /v2/account`: the caller's own account and its credit allowance; every role may read it. */
export const accountRoutes: FastifyPluginAsync<{ accounts: Pick<AccountsService, 'own'> }> = async (app, { accounts }) => {
  app.get('/v2/account', {
    // An operator's change reaches the database directly, with no purge: the cached variant never stores it.
    config: { permission: ['self', 'read'], cdnCache: false },
    schema: {
      operationId: 'getAccount',
      summary: 'Read your account',
      description: 'Answers the caller\'s own account: its id, code and name, and the credits it may spend each minute, with whether that allowance is the account\'s own or the server\'s default. Every role may call it. An operator sets the allowance with `reelhouse accounts update ID --credits-per-minute N`.',
      tags: ['users'],
      querystring: SignedOnly,
      response: { 200: Account, ...AccountErrors }
    }
  }, async (req) => await accounts.own(callerOf(req)))
}
