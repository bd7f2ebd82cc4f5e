import { mkdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { MEDIA_PLAYLIST_FILE, renditionArgs } from './ffmpeg-arguments.ts'
import { MediaToolError } from './media-errors.ts'
import { meanBitRate, parseMediaPlaylist, peakBitRate, totalSeconds } from './media-playlist.ts'
import { checkJobLayout, runMediaTool } from './media-runner.ts'
import type { MediaTools, Rendition, RenditionOutput } from './processing-types.ts'
import { progressLines } from './progress-lines.ts'
import { inputWasUnreadable, toolFailure, unreadable } from './tool-output.ts'

export interface TranscodeOptions {
  /** Called with 0..1 as ffmpeg reports its position (about twice a second), and 1 at the end. */
  onProgress?: (fraction: number) => void
  /** Aborting kills the run (a lost lease, a shutdown) and rejects with MediaAbortedError. */
  signal?: AbortSignal
  /** Default: 5 min plus 4× the source duration natively, 20× with the wasm build. */
  timeoutMs?: number
}

/** Time limit of a rendition when the caller sets none: generous, and proportional to the media. */
export function defaultTranscodeTimeoutMs (tools: MediaTools, durationMs: number): number {
  return 300_000 + durationMs * (tools.kind === 'native' ? 4 : 20)
}

/**
 * Makes ONE rendition in `<outDir>/<rendition.name>/`: `index.m3u8` (VOD) and 6 s MPEG-TS segments.
 * The folder is emptied first, so a run retried after a crash leaves one set of files. The caller can
 * publish the lowest rendition as soon as it is done, then make the others.
 */
export async function transcodeRendition (tools: MediaTools, inputFile: string, outDir: string, rendition: Rendition, options: TranscodeOptions = {}): Promise<RenditionOutput> {
  const directory = join(outDir, rendition.name)
  await checkJobLayout(inputFile, directory)
  await rm(directory, { recursive: true, force: true })
  await mkdir(directory, { recursive: true })
  const what = `Making the ${rendition.name} rendition`
  const result = await runMediaTool(tools, {
    program: 'ffmpeg',
    args: (run) => renditionArgs(run, rendition),
    inputFile,
    outDir: directory,
    what,
    timeoutMs: options.timeoutMs ?? defaultTranscodeTimeoutMs(tools, rendition.sourceDurationMs),
    signal: options.signal,
    onStdoutLine: progressLines(rendition.sourceDurationMs, options.onProgress)
  })
  if (result.exitCode !== 0) {
    throw inputWasUnreadable(result) ? unreadable(result) : toolFailure(what, result)
  }

  const playlistText = await readFile(join(directory, MEDIA_PLAYLIST_FILE), 'utf8')
  const playlist = parseMediaPlaylist(playlistText)
  if (playlist.segments.length === 0) throw new MediaToolError(`${what} produced no segments.`)
  const sizes = await Promise.all(playlist.segments.map(async (s) => (await stat(join(directory, s.uri))).size))
  options.onProgress?.(1)
  return {
    rendition,
    directory,
    files: [MEDIA_PLAYLIST_FILE, ...playlist.segments.map((s) => s.uri)],
    uri: `${rendition.name}/${MEDIA_PLAYLIST_FILE}`,
    durationMs: Math.round(totalSeconds(playlist) * 1000),
    bandwidth: peakBitRate(playlist, sizes),
    averageBandwidth: meanBitRate(playlist, sizes)
  }
}
