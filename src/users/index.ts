export { usersRoutes } from './users-routes.ts'
export { createUser, type ApiUserWithSecret } from './users-service.ts'
export { createUsersRepository, type UsersRepository } from './users-repository.ts'
