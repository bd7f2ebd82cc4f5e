export { playersRoutes } from './players-routes.ts'
export { createPlayersRepository, type PlayersRepository, type PlayerRow, type PlayersTable } from './players-repository.ts'
export { toApiPlayer, type ApiPlayer } from './players-format.ts'
export { Player } from './players-schemas.ts'
