/**
 * The media worker (docs/media.md): takes media jobs with a lease, processes each upload into a
 * preview and an HLS ladder in the media store, and moves the asset through its states.
 */
export { startMediaWorker, type MediaWorker, type MediaWorkerOptions } from './media-worker.ts'
