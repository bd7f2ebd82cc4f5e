import { stat } from 'node:fs/promises'
import { durationPassArgs, probeArgs } from './ffmpeg-arguments.ts'
import { MediaRejectedError } from './media-errors.ts'
import { runMediaTool } from './media-runner.ts'
import type { MediaTools, ProbeResult, ProbeStream } from './processing-types.ts'
import { containerName, durationMsOf, toProbeStreams, type FfprobeOutput } from './probe-parse.ts'
import { crashed, toolFailure, unreadable } from './tool-output.ts'

export interface ProbeOptions {
  /** Default 60 s; the duration pass for files without one in their header gets the same again. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Largest accepted picture side in pixels (default 8192); larger sources are refused. */
  maxSide?: number
  /** Largest accepted picture area in pixels (default 7680×4320, 8K UHD). */
  maxPixels?: number
}

const DEFAULT_PROBE_TIMEOUT_MS = 60_000
/** ffprobe prints a few hundred bytes per stream; more than this is a file built to flood us. */
const MAX_PROBE_OUTPUT_BYTES = 4 * 1024 * 1024

/**
 * What the upload holds: duration, container, and its video and audio streams (`source_file_info`).
 * Throws `MediaRejectedError`, with a sentence a person understands, for anything we will not process.
 */
export async function probeMedia (tools: MediaTools, inputFile: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const { size } = await stat(inputFile)
  if (size === 0) throw new MediaRejectedError('The file is empty.')
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS
  const result = await runMediaTool(tools, {
    program: 'ffprobe',
    args: probeArgs,
    inputFile,
    outDir: null,
    what: 'Reading the file',
    timeoutMs,
    signal: options.signal,
    maxStdoutBytes: MAX_PROBE_OUTPUT_BYTES
  })
  if (result.stdoutOverflow) throw new MediaRejectedError('The file is not a video or audio file we can read (it declares far too many streams).')
  // Judged by the output, not the exit code: the wasm ffprobe returns -1 even when it succeeds.
  const output = parseJson(result.stdout)
  if (output?.format?.format_name === undefined) {
    throw crashed(result) ? toolFailure('Reading the file', result) : unreadable(result)
  }
  const streams = toProbeStreams(output)
  if (streams.length === 0) throw new MediaRejectedError('The file has no video or audio stream.')
  checkPictureSize(streams, options.maxSide ?? 8192, options.maxPixels ?? 7680 * 4320)
  const durationMs = durationMsOf(output.format.duration) ?? await measureDuration(tools, inputFile, streams[0] as ProbeStream, timeoutMs, options.signal)
  return {
    durationMs,
    container: containerName(output, streams),
    bitRate: positiveInteger(output.format.bit_rate),
    streams
  }
}

function positiveInteger (text: string | undefined): number | null {
  const value = Number(text)
  return text !== undefined && Number.isSafeInteger(value) && value > 0 ? value : null
}

function parseJson (text: string): FfprobeOutput | null {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? value as FfprobeOutput : null
  } catch {
    return null
  }
}

function checkPictureSize (streams: ProbeStream[], maxSide: number, maxPixels: number): void {
  for (const s of streams) {
    if (s.type !== 'video') continue
    if (s.width === null || s.height === null) throw new MediaRejectedError('The file is not a video or audio file we can read (its video has no picture size).')
    if (s.width > maxSide || s.height > maxSide || s.width * s.height > maxPixels) {
      throw new MediaRejectedError(`The video is ${s.width}×${s.height} pixels; the largest we process is ${maxSide} pixels on a side and ${maxPixels} pixels in all.`)
    }
  }
}

/**
 * Files whose header has no duration (a browser's MediaRecorder WebM) are read through once, copying
 * packets without decoding; the last timestamp of the progress report is the duration.
 */
async function measureDuration (tools: MediaTools, inputFile: string, stream: ProbeStream, timeoutMs: number, signal: AbortSignal | undefined): Promise<number> {
  let lastMicroseconds = 0
  const result = await runMediaTool(tools, {
    program: 'ffmpeg',
    args: (run) => durationPassArgs(run, stream.index),
    inputFile,
    outDir: null,
    what: 'Measuring the duration',
    timeoutMs,
    signal,
    onStdoutLine: (line) => {
      const match = /^out_time_us=(\d+)$/.exec(line)
      if (match !== null) lastMicroseconds = Math.max(lastMicroseconds, Number(match[1]))
    }
  })
  if (result.exitCode !== 0) throw crashed(result) ? toolFailure('Measuring the duration', result) : unreadable(result)
  if (lastMicroseconds <= 0) throw new MediaRejectedError('The file is not a video or audio file we can read (it holds no playable frames).')
  return Math.round(lastMicroseconds / 1000)
}
