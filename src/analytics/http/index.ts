/** The analytics engine (src/analytics/index.ts) as the app serves it: routes, resources, one engine per process. */
export { analyticsRoutes } from './analytics-routes.ts'
export { analyticsPlacement, analyticsReadinessChecks, createAppAnalytics, isEmbedded, ON_FIRST_USE, type AnalyticsPlacement, type AppAnalytics, type AppAnalyticsDeps } from './app-analytics.ts'
export { analyticsResources, labelsWithAncestors } from './analytics-resources.ts'
export { collectionCreditKey, EVENTS_PATH } from './collect-routes.ts'
export { IMPORT_PATH, MAX_IMPORT_BYTES } from './import-routes.ts'
export { REPORTS_PATH } from './report-routes.ts'
