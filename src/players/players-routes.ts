import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../app/context.ts'
import { authOf } from '../http/request-types.ts'
import { pageParams } from '../paging/index.ts'
import { createPlayersRepository } from './players-repository.ts'
import * as S from './players-schemas.ts'
import * as players from './players-service.ts'
import type { PlayersContext } from './players-writes.ts'

/** `/v2/players` and `/v2/players/:id/metadata` (product.md §8). */
export const playersRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const pctx: PlayersContext = { db: ctx.db, database: ctx.database, clock: ctx.clock, players: createPlayersRepository(ctx.db) }
  const read = { permission: ['players', 'read'] as const }
  const write = { permission: ['players', 'write'] as const }
  const tags = ['players']
  const one = { tags, params: S.PlayerParams, querystring: S.PlayerQuery }

  app.get('/v2/players', {
    config: read,
    schema: { tags, querystring: S.PlayersQuery, response: { 200: S.PlayersPage, ...S.PlayerErrors } }
  }, async (req) => await players.listPlayers(pctx, authOf(req).accountId, pageParams(req, ctx.pageTokens)))

  app.post('/v2/players', {
    config: write,
    schema: { tags, querystring: S.PlayerQuery, body: S.CreatePlayerBody, response: { 200: S.Player, ...S.PlayerErrors } }
  }, async (req) => await players.createPlayer(pctx, authOf(req).accountId, req.body))

  app.get('/v2/players/:player_id', {
    config: read,
    schema: { ...one, response: { 200: S.Player, ...S.PlayerErrors } }
  }, async (req) => await players.getPlayer(pctx, authOf(req).accountId, req.params.player_id))

  app.patch('/v2/players/:player_id', {
    config: write,
    schema: { ...one, body: S.UpdatePlayerBody, response: { 200: S.Player, ...S.PlayerErrors } }
  }, async (req) => await players.updatePlayer(pctx, authOf(req).accountId, req.params.player_id, req.body))

  app.put('/v2/players/:player_id', {
    config: write,
    schema: { ...one, body: S.ReplacePlayerBody, response: { 200: S.Player, ...S.PlayerErrors } }
  }, async (req) => await players.replacePlayer(pctx, authOf(req).accountId, req.params.player_id, req.body))

  app.delete('/v2/players/:player_id', {
    config: write,
    schema: { ...one, response: { 200: S.Empty, ...S.PlayerErrors } }
  }, async (req) => await players.deletePlayer(pctx, authOf(req).accountId, req.params.player_id))

  app.get('/v2/players/:player_id/metadata', {
    config: read,
    schema: { ...one, response: { 200: S.Metadata, ...S.PlayerErrors } }
  }, async (req) => await players.getMetadata(pctx, authOf(req).accountId, req.params.player_id))

  app.put('/v2/players/:player_id/metadata', {
    config: write,
    schema: { ...one, body: S.ReplaceMetadataBody, response: { 200: S.Metadata, ...S.PlayerErrors } }
  }, async (req) => await players.replaceMetadata(pctx, authOf(req).accountId, req.params.player_id, req.body))

  app.patch('/v2/players/:player_id/metadata', {
    config: write,
    schema: { ...one, body: S.PatchMetadataBody, response: { 200: S.Metadata, ...S.PlayerErrors } }
  }, async (req) => await players.patchMetadata(pctx, authOf(req).accountId, req.params.player_id, req.body))

  app.delete('/v2/players/:player_id/metadata', {
    config: write,
    schema: { ...one, response: { 200: S.Empty, ...S.PlayerErrors } }
  }, async (req) => await players.deleteMetadata(pctx, authOf(req).accountId, req.params.player_id))
}
