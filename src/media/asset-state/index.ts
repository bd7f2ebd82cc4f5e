/**
 * An asset's media state (docs/media.md): its media versions and streams, the state changes the worker
 * makes (the `MediaAssets` port) and the lookup of served media by token.
 */
export type { MediaAssets, MediaJobRef, StreamState } from './asset-media-port.ts'
export { createAssetMediaService } from './asset-media-service.ts'
export { assetStreamsRoutes } from './streams-routes.ts'
export { createPreviewService } from './preview-service.ts'
export { previewRoutes } from './preview-routes.ts'
export { processingQueueRoutes } from './processing-queue.ts'
