/**
 * The media processing engine: one uploaded file in, a probe result, a JPEG preview and an HLS ladder
 * out. Uploads are hostile input: every run is sandboxed (see docs/media-processing.md). The caller (a
 * worker with jobs, leases and a media store) orchestrates; this module keeps no state.
 *
 * How the media worker (src/media/worker/process-job.ts) runs it, so that the asset is playable as soon
 * as its lowest rendition exists:
 *
 * @example
 * const tools = await locateMediaTools({ env: config.mediaTools, logger })        // once, at start
 * // Per job: the original alone in its own folder (`input`); outputs go to `outDir`, elsewhere.
 * const probe = await probeMedia(tools, input, { signal })                  // MediaRejectedError → asset `error`
 * const plan = planLadder(probe)                                            // lowest rendition first
 * const preview = await makePreview(tools, input, outDir, probe, { signal }) // null for audio; put in the store
 * const done = []
 * for (const rendition of plan) {
 *   done.push(await transcodeRendition(tools, input, outDir, rendition, { onProgress, signal }))
 *   // The rendition's segments, then its playlist, go to the media store; then the master playlist:
 *   await store.put(`${prefix}master.m3u8`, Buffer.from(masterPlaylist(done)))
 *   // After the first rendition the asset serves this version; each later one adds a variant.
 * }
 */
export { locateMediaTools, defaultLimits } from './media-tools-locator.ts'
export { probeMedia } from './media-probe.ts'
export { makePreview } from './preview-image.ts'
export { planLadder } from './ladder-plan.ts'
export { transcodeRendition } from './rendition-transcode.ts'
export { makeLadder, type LadderPlan, type LadderSegment } from './ladder-run.ts'
export { standardInput } from './standard-input.ts'
export { recogniseSpeech, speechWav } from './speech.ts'
export { meanBitRate, peakBitRate, renderMediaPlaylist } from './media-playlist.ts'
export { SEGMENT_SECONDS } from './ffmpeg-arguments.ts'
export { masterPlaylist, writeMasterPlaylist, type MasterEntry } from './master-playlist.ts'
export { FORMAT_WHITELIST } from './ffmpeg-arguments.ts'
export {
  MediaRejectedError, MediaTimeoutError, MediaAbortedError, MediaToolError, MediaToolsUnavailableError
} from './media-errors.ts'
export type {
  MediaTools, WasmMediaTools, MediaLogger, ProbeResult, ProbeStream, Rendition, RenditionOutput
} from './processing-types.ts'
