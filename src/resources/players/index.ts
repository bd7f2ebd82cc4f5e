/** Players: their routes, service and search document; the player shapes other resources show. */
export { playersRoutes } from './players-routes.ts'
export { createPlayersService } from './players-service.ts'
export { createPlayersRepository } from './players-repository.ts'
export { toApiPlayer } from './players-format.ts'
export { Player, type ApiPlayer } from './players-schemas.ts'
export { loadPlayerDocument, playerDocumentTouches } from './players-document.ts'
