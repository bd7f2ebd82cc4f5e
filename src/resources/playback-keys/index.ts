/** Playback keys and the playback tokens the service signs (docs/playback.md). */
export { playbackKeysRoutes } from './playback-keys-routes.ts'
export { createPlaybackKeysService } from './playback-keys-service.ts'
export { createPlaybackKeysRepository } from './playback-keys-repository.ts'
