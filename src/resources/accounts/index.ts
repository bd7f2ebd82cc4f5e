/** Accounts, the tenants that own every other resource. */
export { createAccountsService, CREDENTIALS_FILE, type CreatedAccount } from './accounts-service.ts'
export { createAccountsRepository, type AccountsRepository } from './accounts-repository.ts'
export { accountRoutes } from './account-routes.ts'
