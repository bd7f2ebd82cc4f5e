/**
 * The media processing engine: one uploaded file in, a probe result, a JPEG preview and an HLS ladder
 * out. Uploads are hostile input: every run is sandboxed (see docs/media-processing.md). The caller (a
 * worker with jobs, leases and a media store) orchestrates; this module keeps no state.
 *
 * The intended order, so that the asset is playable as soon as its lowest rendition exists:
 *
 * @example
 * const tools = await locateMediaTools({ env: process.env, logger })        // once, at start
 * // Per job: `inputFile` alone in its own folder; outputs go to `outDir`, elsewhere.
 * const probe = await probeMedia(tools, inputFile)                          // MediaRejectedError → asset `error`
 * const preview = await makePreview(tools, inputFile, outDir, probe)        // null for audio
 * const [lowest, ...others] = planLadder(probe)
 * const done = [await transcodeRendition(tools, inputFile, outDir, lowest, { onProgress, signal })]
 * await writeMasterPlaylist(outDir, done)                                   // publish: the asset is playable
 * for (const rendition of others) {
 *   done.push(await transcodeRendition(tools, inputFile, outDir, rendition, { onProgress, signal }))
 *   await writeMasterPlaylist(outDir, done)                                 // publish again: one more variant
 * }
 */
export { locateMediaTools, defaultLimits } from './media-tools-locator.ts'
export { probeMedia } from './media-probe.ts'
export { makePreview } from './preview-image.ts'
export { planLadder } from './ladder-plan.ts'
export { transcodeRendition } from './rendition-transcode.ts'
export { masterPlaylist, writeMasterPlaylist } from './master-playlist.ts'
export { FORMAT_WHITELIST } from './ffmpeg-arguments.ts'
export {
  MediaRejectedError, MediaTimeoutError, MediaAbortedError, MediaToolError, MediaToolsUnavailableError
} from './media-errors.ts'
export type {
  MediaTools, WasmMediaTools, MediaLogger, ProbeResult, ProbeStream, Rendition, RenditionOutput
} from './processing-types.ts'
