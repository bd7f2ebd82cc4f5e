import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { PageTokens } from '../../paging/index.ts'
import { registerCrudRoutes, registerMetadataRoutes, type ResourceRoutes } from '../kit/crud-routes.ts'
import * as S from './players-schemas.ts'
import type { PlayersService } from './players-service.ts'

/** `/v2/players` and `/v2/players/:player_id/metadata`. */
export const playersRoutes: FastifyPluginAsyncTypebox<{ players: PlayersService, pageTokens: PageTokens }> = async (app, { players, pageTokens }) => {
  const routes: ResourceRoutes = { path: '/v2/players', id: 'player_id', area: 'players', tag: 'players', noun: { one: 'player', many: 'players' }, errors: S.PlayerErrors, pageTokens }
  registerCrudRoutes(app, routes, {
    item: S.Player,
    create: S.CreatePlayerBody,
    update: S.UpdatePlayerBody,
    docs: {
      notes: {
        create: 'Branding flags default to true but for `show_info_screen_homepage_link`, `show_bitrate_button` and `chromeless`. `is_default: true` clears the flag on the account\'s other players.',
        update: '`is_default: true` clears the flag on the account\'s other players.',
        replace: 'Metadata is not touched.',
        delete: 'Assets that used the player lose it; deleting the default player leaves the account without one.'
      }
    }
  }, players)
  registerMetadataRoutes(app, routes, players)
}
