/**
 * Uploads (docs/uploads.md): chunked uploads of an asset's original through signed chunk URLs, and
 * replacements; a finished upload queues a media job.
 */
export { uploadsRoutes } from './uploads-routes.ts'
export { chunkRoutes } from './chunk-routes.ts'
export { createUploadsService } from './uploads-service.ts'
export type { UploadsService } from './uploads-service.ts'
