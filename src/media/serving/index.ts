// Public media URLs on both listeners (docs/media.md, "Serving").
export { mediaRoutes } from './media-routes.ts'
export { playbackTokens } from './playback-token.ts'
