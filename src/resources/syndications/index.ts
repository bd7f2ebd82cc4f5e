/** Syndications, their access keys and their public feeds. */
export { syndicationsRoutes } from './syndications-routes.ts'
export { createSyndicationsService } from './syndications-service.ts'
export { feedRoutes } from './feed/feed-routes.ts'
export { createFeedService } from './feed/feed-service.ts'
export { loadSyndicationDocument, syndicationDocumentTouches } from './syndications-document.ts'
