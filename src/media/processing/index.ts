/**
 * The media processing engine: one uploaded file in, a probe result, a JPEG preview and an HLS ladder
 * out. Uploads are hostile input: every run is sandboxed (see docs/media-processing.md). The caller (a
 * worker with jobs, leases and a media store) orchestrates; this module keeps no state.
 *
 * How a caller runs it by hand, one rendition per run (the media worker instead runs the whole ladder
 * at once with `makeLadder` and publishes segments as they close: src/media/worker/publishing.ts):
 *
 * @example
 * const tools = await locateMediaTools({ env: config.mediaTools, logger })        // once, at start
 * // Per job: the original alone in its own folder (`input`); outputs go to `outDir`, elsewhere.
 * const probe = await probeMedia(tools, input, { signal })                  // MediaRejectedError → asset `error`
 * const plan = planLadder(probe)                                            // lowest rendition first
 * const preview = await makePreview(tools, input, outDir, probe, { signal }) // null for audio
 * const done = []
 * for (const rendition of plan) done.push(await transcodeRendition(tools, input, outDir, rendition, { onProgress, signal }))
 * await writeMasterPlaylist(outDir, done)   // a master beside local files; served masters are rendered from the database
 */
export { locateMediaTools, defaultLimits } from './media-tools-locator.ts'
export { probeMedia } from './media-probe.ts'
export { makePreview } from './preview-image.ts'
export { planLadder } from './ladder-plan.ts'
export { transcodeRendition } from './rendition-transcode.ts'
export { makeLadder, type LadderPlan, type LadderSegment } from './ladder-run.ts'
export { standardInput } from './standard-input.ts'
export { makeDownloads } from './downloads.ts'
export { checkPreviewImage } from './image-check.ts'
export { FRAME_NAME, FRAMES_DIR, planStoryboard, renderStoryboardVtt, type StoryboardPlan } from './storyboard.ts'
export { recogniseSpeech, speechWav } from './speech.ts'
export { meanBitRate, peakBitRate, renderMediaPlaylist } from './media-playlist.ts'
export { SEGMENT_SECONDS } from './ffmpeg-arguments.ts'
export { masterPlaylist, writeMasterPlaylist } from './master-playlist.ts'
export { FORMAT_WHITELIST } from './ffmpeg-arguments.ts'
export {
  MediaRejectedError, MediaTimeoutError, MediaAbortedError, MediaToolError, MediaToolsUnavailableError
} from './media-errors.ts'
export type {
  MediaTools, WasmMediaTools, MediaLogger, ProbeResult, ProbeStream, Rendition, RenditionOutput
} from './processing-types.ts'
