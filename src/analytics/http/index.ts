/** The analytics routes the app serves; the engine they use is held by `../app-analytics.ts`. */
export { analyticsRoutes } from './analytics-routes.ts'
export { MAX_IMPORT_BYTES } from './import-routes.ts'
