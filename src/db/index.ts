// The database's public face: opening it by URL, the tables' types, and what the other modules use of it.
export { cachedStatementCount, openDatabase, type Database, type Dialect } from './open-database.ts'
export { sqliteHandleOf } from './sqlite-handle.ts'
export type { DB } from './tables/index.ts'
export { migrateToLatest } from './migrate.ts'
export { isDatabaseBusy } from './busy.ts'
export { prepared, preparedFindById, SLOT } from './prepared.ts'
export { attachReadCache, chargeDerived, readCacheFor, ReadCache } from './read-cache.ts'
export { chainObservers, CREDENTIALS, noteCredentialChange, noteChange, noteWrite, noteWrites, type ChangeRecord, type Invalidation, type WriteEffects, type WriteObserver } from './changes.ts'
