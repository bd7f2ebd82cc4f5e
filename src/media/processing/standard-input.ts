import { FORMAT_WHITELIST } from './ffmpeg-arguments.ts'
import { runMediaTool } from './media-runner.ts'
import type { MediaTools, ProbeResult, ProbeStream } from './processing-types.ts'

/**
 * Standard input (docs/media.md, "Standard input"): what can be published by stream copy, before any
 * encoding. H.264 8-bit 4:2:0 progressive, AAC-LC or no audio, key frames at most 10 s apart, at most
 * 1080p (1920×1080 either way up), 60 frames/s and 8 Mbit/s, no rotation (a copy into MPEG-TS would drop
 * it and play the picture on its side).
 */
const STANDARD_LIMITS = { maxKeyFrameGapSeconds: 10, maxShortSide: 1080, maxLongSide: 1920, maxFrameRate: 60, maxBitRate: 8_000_000 } as const

type StandardVerdict =
  | { standard: true, codecs: string, maxKeyFrameGapSeconds: number }
  | { standard: false, reason: string }

interface StreamDetails { index?: number, codec_type?: string, pix_fmt?: string, field_order?: string, profile?: string, level?: number }

/**
 * Decides from the probe and two more reads that decode nothing: the streams' pixel format, field order,
 * profile and level, and the key-frame flags of the video's packets (streamed line by line, so a long
 * file costs no memory).
 */
export async function standardInput (tools: MediaTools, inputFile: string, probe: ProbeResult, options: { signal?: AbortSignal, timeoutMs?: number } = {}): Promise<StandardVerdict> {
  const video = probe.streams.find((s) => s.type === 'video')
  const audio = probe.streams.find((s) => s.type === 'audio')
  if (video === undefined) return { standard: false, reason: 'no video' }
  const early = quickVerdict(probe, video, audio)
  if (early !== null) return early
  const timeoutMs = options.timeoutMs ?? 60_000
  // Both reads only demux the upload, so they run side by side; the key-frame read is stopped when the
  // stream details already refuse.
  const reads = new AbortController()
  const signal = options.signal === undefined ? reads.signal : AbortSignal.any([options.signal, reads.signal])
  const gapRead = longestKeyFrameGap(tools, inputFile, video.index, timeoutMs, signal)
  gapRead.catch(() => {}) // awaited below, or stopped after a refusal
  try {
    const details = await streamDetails(tools, inputFile, timeoutMs, signal)
    const verdict = detailsVerdict(details, video, audio)
    if (!verdict.standard) return verdict
    const gap = await gapRead
    if (gap === null) return { standard: false, reason: 'no key frame at the start' }
    if (gap > STANDARD_LIMITS.maxKeyFrameGapSeconds) return { standard: false, reason: `key frames ${gap.toFixed(1)} s apart` }
    return { standard: true, codecs: verdict.codecs, maxKeyFrameGapSeconds: gap }
  } finally {
    reads.abort()
    await gapRead.catch(() => {})
  }
}

/** The verdict of the stream details alone: a refusal, or the copy's RFC 6381 codecs. */
function detailsVerdict (details: StreamDetails[], video: ProbeStream, audio: ProbeStream | undefined): { standard: true, codecs: string } | { standard: false, reason: string } {
  const v = details.find((d) => d.index === video.index)
  const a = audio === undefined ? undefined : details.find((d) => d.index === audio.index)
  if (v?.pix_fmt !== 'yuv420p' && v?.pix_fmt !== 'yuvj420p') return { standard: false, reason: `pixel format ${v?.pix_fmt ?? 'unknown'}` }
  if (v.field_order !== 'progressive') return { standard: false, reason: `field order ${v.field_order ?? 'unknown'}` }
  const profile = AVC_PROFILES[v.profile ?? '']
  if (profile === undefined) return { standard: false, reason: `H.264 profile ${v.profile ?? 'unknown'}` }
  if (typeof v.level !== 'number' || v.level <= 0 || v.level > 255) return { standard: false, reason: 'no H.264 level' }
  if (audio !== undefined && a?.profile !== 'LC') return { standard: false, reason: `AAC profile ${a?.profile ?? 'unknown'}` }
  return { standard: true, codecs: `avc1.${profile}${v.level.toString(16).padStart(2, '0')}` + (audio === undefined ? '' : ',mp4a.40.2') }
}

/** RFC 6381 `avc1.PPCC`: profile_idc and constraint flags of the profiles a copy may carry. */
const AVC_PROFILES: Record<string, string> = { 'Constrained Baseline': '42e0', Baseline: '4200', Main: '4d40', High: '6400' }

function quickVerdict (probe: ProbeResult, video: ProbeStream, audio: ProbeStream | undefined): StandardVerdict | null {
  if (video.codec !== 'h264') return { standard: false, reason: `video codec ${video.codec}` }
  if (audio !== undefined && audio.codec !== 'aac') return { standard: false, reason: `audio codec ${audio.codec}` }
  if (video.rotation !== null && video.rotation !== 0) return { standard: false, reason: `rotated ${video.rotation}°` }
  const w = video.width ?? 0
  const h = video.height ?? 0
  if (Math.min(w, h) > STANDARD_LIMITS.maxShortSide || Math.max(w, h) > STANDARD_LIMITS.maxLongSide) return { standard: false, reason: `picture ${w}×${h}` }
  if (video.displayWidth !== w || video.displayHeight !== h) return { standard: false, reason: 'non-square pixels' }
  if (video.frameRate !== null && video.frameRate > STANDARD_LIMITS.maxFrameRate) return { standard: false, reason: `${video.frameRate} frames/s` }
  const bitRate = video.bitRate ?? probe.bitRate
  if (bitRate === null || bitRate > STANDARD_LIMITS.maxBitRate) return { standard: false, reason: `bit rate ${bitRate ?? 'unknown'}` }
  return null
}

async function streamDetails (tools: MediaTools, inputFile: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<StreamDetails[]> {
  const result = await runMediaTool(tools, {
    program: 'ffprobe',
    args: (run) => [
      '-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'file', '-format_whitelist', FORMAT_WHITELIST,
      '-show_entries', 'stream=index,codec_type,pix_fmt,field_order,profile,level', '-of', 'json', `file:${run.input}`
    ],
    inputFile,
    outDir: null,
    what: 'Reading the streams',
    timeoutMs,
    signal,
    maxStdoutBytes: 4 * 1024 * 1024
  })
  try {
    return (JSON.parse(result.stdout) as { streams?: StreamDetails[] }).streams ?? []
  } catch {
    return []
  }
}

/**
 * The longest stretch, in seconds, between two key frames of the video (and from the last one to the
 * end), read from the packets' flags: ffprobe demuxes, it does not decode. Null when the first packet is
 * not a key frame.
 */
async function longestKeyFrameGap (tools: MediaTools, inputFile: string, streamIndex: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<number | null> {
  let first = true
  let startsWithKey = false
  let lastKey = 0
  let longest = 0
  let end = 0
  await runMediaTool(tools, {
    program: 'ffprobe',
    args: (run) => [
      '-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'file', '-format_whitelist', FORMAT_WHITELIST,
      '-select_streams', String(streamIndex), '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', `file:${run.input}`
    ],
    inputFile,
    outDir: null,
    what: 'Reading the key frames',
    timeoutMs,
    signal,
    onStdoutLine: (line) => {
      const [time, flags] = line.split(',')
      const t = Number(time)
      if (time === undefined || time === '' || !Number.isFinite(t)) return
      const key = flags?.startsWith('K') === true
      if (first) {
        first = false
        startsWithKey = key
        lastKey = t
      }
      if (key && t > lastKey) {
        longest = Math.max(longest, t - lastKey)
        lastKey = t
      }
      end = Math.max(end, t)
    }
  })
  if (!startsWithKey) return null
  return Math.max(longest, end - lastKey)
}
