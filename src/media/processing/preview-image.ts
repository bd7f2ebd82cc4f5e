import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { PREVIEW_FILE, previewArgs } from './ffmpeg-arguments.ts'
import { MediaRejectedError } from './media-errors.ts'
import { checkJobLayout, runMediaTool } from './media-runner.ts'
import type { MediaTools, PreviewImage, ProbeResult } from './processing-types.ts'
import { evenDown, evenWithin } from './picture-size.ts'
import { inputWasUnreadable, toolFailure, unreadable } from './tool-output.ts'

export interface PreviewOptions {
  /** Default 120 s. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Widest preview in pixels (default 640); smaller sources keep their own width. */
  maxWidth?: number
}

const DEFAULT_PREVIEW_TIMEOUT_MS = 120_000
/** How far into the video the frame is taken: past fades and titles, well before the end. */
export const PREVIEW_POSITION = 0.1

/**
 * A JPEG of the video about 10 % in, upright, at most `maxWidth` wide (`<outDir>/preview.jpg`).
 * Answers null for audio-only media, which has no picture.
 */
export async function makePreview (tools: MediaTools, inputFile: string, outDir: string, probe: ProbeResult, options: PreviewOptions = {}): Promise<PreviewImage | null> {
  const video = probe.streams.find((s) => s.type === 'video')
  if (video?.displayWidth == null || video.displayHeight == null) return null
  const maxWidth = options.maxWidth ?? 640
  const width = evenDown(Math.min(maxWidth, video.displayWidth))
  const height = evenWithin(video.displayHeight * width / video.displayWidth, video.displayHeight)
  await checkJobLayout(inputFile, outDir)
  await mkdir(outDir, { recursive: true })
  const file = join(outDir, PREVIEW_FILE)
  await rm(file, { force: true })

  const attempt = async (atMs: number): Promise<boolean> => {
    const result = await runMediaTool(tools, {
      program: 'ffmpeg',
      args: (run) => previewArgs(run, { atSeconds: atMs / 1000, streamIndex: video.index, width, height }),
      inputFile,
      outDir,
      what: 'Making the preview image',
      timeoutMs: options.timeoutMs ?? DEFAULT_PREVIEW_TIMEOUT_MS,
      signal: options.signal
    })
    if (result.exitCode !== 0) throw inputWasUnreadable(result) ? unreadable(result) : toolFailure('Making the preview image', result)
    return await stat(file).then((s) => s.size > 0, () => false)
  }
  let atMs = Math.round(probe.durationMs * PREVIEW_POSITION)
  // A seek can land past the last decodable frame of an odd file; the first frame is the fallback.
  if (!await attempt(atMs)) {
    atMs = 0
    if (!await attempt(0)) throw new MediaRejectedError('The video holds no picture we can decode.')
  }
  return { file, width, height, atMs }
}
