/**
 * Direct uploads (docs/uploads.md, "Direct uploads"): one-time tus URLs for uploaders that hold no
 * secret; the completed upload creates its asset and is processed as a chunked upload is.
 */
export { directUploadsRoutes } from './direct-uploads-routes.ts'
export { tusRoutes } from './tus-routes.ts'
export { createDirectUploadsService } from './direct-uploads-service.ts'
