import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../../http/request-types.ts'
import type { PageTokens } from '../../paging/index.ts'
import { parts, registerCrudRoutes, SignedOnly, type ResourceRoutes } from '../kit/crud-routes.ts'
import * as S from './users-schemas.ts'
import type { UsersService } from './users-service.ts'

/** `/v2/users` (administrators only) and `/v2/users/me` (every role). */
export const usersRoutes: FastifyPluginAsyncTypebox<{ users: UsersService, pageTokens: PageTokens }> = async (app, { users, pageTokens }) => {
  const routes: ResourceRoutes = { path: '/v2/users', id: 'user_id', area: 'users', tag: 'users', noun: { one: 'user', many: 'users' }, errors: S.UserErrors, pageTokens }
  const { write, one, errors, tags } = parts(routes)

  app.get('/v2/users/me', {
    config: { permission: ['self', 'read'] },
    schema: {
      operationId: 'getMe',
      summary: 'Who am I',
      description: 'Answers the caller: its user, role and account. Every role may call it, so a page or a tool can show only what the role allows.',
      tags,
      querystring: SignedOnly,
      response: { 200: S.Me, ...errors }
    }
  }, async (req) => await users.me(callerOf(req)))
  registerCrudRoutes(app, routes, {
    item: S.User,
    created: S.UserWithSecret,
    create: S.CreateUserBody,
    update: S.UpdateUserBody,
    replace: false,
    docs: {
      notes: {
        create: 'The answer holds the new user\'s API key and secret; the secret is never shown again.',
        update: 'An account keeps at least one administrator: demoting the last one answers 409.',
        delete: 'The user\'s key stops working at once. Deleting the account\'s last administrator answers 409.'
      }
    }
  }, users)
  app.post(`${one.path}/secret`, {
    config: write,
    schema: {
      operationId: 'rotateUserSecret',
      summary: 'Rotate a user\'s secret',
      description: 'Gives the user a new secret and answers the user with it, the only time it is shown. The old secret stops working at once; the API key stays.',
      ...one.schema,
      response: { 200: S.UserWithSecret, ...errors }
    }
  }, async (req) => await users.rotateSecret(callerOf(req), one.idOf(req)))
}
