/** Users of an account, their keys and roles. */
export { usersRoutes } from './users-routes.ts'
export { createUsersService, type UsersService } from './users-service.ts'
export { createUsersRepository, type UsersRepository } from './users-repository.ts'
export type { ApiUserWithSecret } from './users-schemas.ts'
