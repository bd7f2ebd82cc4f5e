import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { callerOf } from '../../http/request-types.ts'
import { Empty, pageOf, PageQuery } from '../../http/schemas.ts'
import { pageParams, type PageTokens } from '../../paging/index.ts'
import { parts, SignedOnly, type ResourceRoutes } from '../kit/crud-routes.ts'
import * as S from './playback-keys-schemas.ts'
import type { PlaybackKeysService } from './playback-keys-service.ts'

const ROUTES: Omit<ResourceRoutes, 'pageTokens'> = { path: '/v2/playback_keys', id: 'playback_key_id', area: 'playback_keys', tag: 'playback keys', noun: { one: 'playback key', many: 'playback keys' }, errors: S.PlaybackKeyErrors }

/** `/v2/playback_keys` (administrators) and `POST /v2/assets/:asset_id/playback_tokens` (whoever may read the asset). */
export const playbackKeysRoutes: FastifyPluginAsyncTypebox<{ keys: PlaybackKeysService, pageTokens: PageTokens }> = async (app, { keys, pageTokens }) => {
  const routes: ResourceRoutes = { ...ROUTES, pageTokens }
  const { write, read, one, errors, tags } = parts(routes)
  app.get(routes.path, {
    config: read,
    schema: { tags, querystring: PageQuery, operationId: 'listPlaybackKeys', summary: 'List playback keys', description: 'The account\'s current keys, oldest first, the managed one (`managed: true`) included; public halves only.', response: { 200: pageOf(S.PlaybackKey), ...errors } }
  }, async (req) => await keys.list(callerOf(req), pageParams(req, pageTokens)))
  app.post(routes.path, {
    config: { ...write, idempotencyKey: false },
    schema: { tags, querystring: SignedOnly, body: Type.Optional(S.CreatePlaybackKeyBody), operationId: 'createPlaybackKey', summary: 'Create a playback key', description: 'Makes an Ed25519 key and answers its private half (PEM and JWK), shown only this once: only the public half is kept. Refuses `Idempotency-Key`, so no replay store holds the private key. Sign tokens with it in your backend (docs/playback.md).', response: { 200: S.CreatedPlaybackKey, ...errors } }
  }, async (req) => await keys.create(callerOf(req)))
  app.get(one.path, {
    config: read,
    schema: { ...one.schema, operationId: 'getPlaybackKey', summary: 'Get a playback key', description: 'Its public half.', response: { 200: S.PlaybackKey, ...errors } }
  }, async (req) => await keys.get(callerOf(req), one.idOf(req)))
  app.delete(one.path, {
    config: write,
    schema: { ...one.schema, operationId: 'revokePlaybackKey', summary: 'Revoke a playback key', description: 'Nothing it signed plays any more, URLs already handed out included, on every process within about a second.', response: { 200: Empty, ...errors } }
  }, async (req) => await keys.remove(callerOf(req), one.idOf(req)))
  app.post('/v2/assets/:asset_id/playback_tokens', {
    config: { permission: ['assets', 'read'] as const },
    schema: {
      tags, querystring: SignedOnly, params: Type.Object({ asset_id: Type.String({ description: 'The asset\'s embed code', examples: ['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'] }) }),
      body: S.PlaybackTokenBody, operationId: 'createPlaybackToken', summary: 'Issue a playback token',
      description: 'A token for this asset, signed with the key the service holds for the account (made on first use, listed with `managed: true`). For the console and quick embeds; in production sign tokens in your own backend.',
      response: { 200: S.PlaybackToken, ...errors }
    }
  }, async (req) => await keys.issueToken(callerOf(req), req.params.asset_id, req.body))
}
