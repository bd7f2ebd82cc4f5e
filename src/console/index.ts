/** The web console at `/console` (docs/console.md): its routes, and its build for the start-up to run. */
export { consoleRoutes } from './console-routes.ts'
export { consoleBundle } from './console-bundle.ts'
