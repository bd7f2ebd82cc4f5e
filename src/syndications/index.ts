export { syndicationsRoutes } from './syndications-routes.ts'
export { SYNDICATION_TYPES, type SyndicationType } from './syndications-schemas.ts'
export type { SyndicationsTable } from './syndications-tables.ts'
