import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../app/context.ts'
import { authOf } from '../http/request-types.ts'
import { pageParams } from '../paging/index.ts'
import * as S from './users-schemas.ts'
import * as users from './users-service.ts'

/** `/v2/users` (product.md §2): administrators only. */
export const usersRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const read = { permission: ['users', 'read'] as const }
  const write = { permission: ['users', 'write'] as const }
  const tags = ['users']

  app.get('/v2/users', {
    config: read,
    schema: { tags, querystring: S.UsersQuery, response: { 200: S.UsersPage, ...S.UserErrors } }
  }, async (req) => await users.listUsers(ctx, authOf(req).accountId, pageParams(req, ctx.pageTokens)))

  app.post('/v2/users', {
    config: write,
    schema: { tags, querystring: S.UserQuery, body: S.CreateUserBody, response: { 200: S.UserWithSecret, ...S.UserErrors } }
  }, async (req) => await users.createUser(ctx, { id: authOf(req).accountId, code: authOf(req).accountCode }, req.body))

  app.get('/v2/users/:user_id', {
    config: read,
    schema: { tags, params: S.UserParams, querystring: S.UserQuery, response: { 200: S.User, ...S.UserErrors } }
  }, async (req) => await users.getUser(ctx, authOf(req).accountId, req.params.user_id))

  app.patch('/v2/users/:user_id', {
    config: write,
    schema: { tags, params: S.UserParams, querystring: S.UserQuery, body: S.UpdateUserBody, response: { 200: S.User, ...S.UserErrors } }
  }, async (req) => await users.updateUser(ctx, authOf(req).accountId, req.params.user_id, req.body))

  app.delete('/v2/users/:user_id', {
    config: write,
    schema: { tags, params: S.UserParams, querystring: S.UserQuery, response: { 200: S.Empty, ...S.UserErrors } }
  }, async (req) => await users.deleteUser(ctx, authOf(req).accountId, req.params.user_id))

  app.post('/v2/users/:user_id/secret', {
    config: write,
    schema: { tags, params: S.UserParams, querystring: S.UserQuery, response: { 200: S.UserWithSecret, ...S.UserErrors } }
  }, async (req) => await users.rotateSecret(ctx, authOf(req).accountId, req.params.user_id))
}
