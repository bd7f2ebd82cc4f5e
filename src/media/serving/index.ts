// Public media URLs on both listeners (docs/media.md, "Serving").
export { mediaRoutes, type MediaRoutesDeps, type ServedMediaLookup } from './media-routes.ts'
