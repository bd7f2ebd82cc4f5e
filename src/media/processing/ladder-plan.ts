import { MediaRejectedError } from './media-errors.ts'
import type { ProbeResult, ProbeStream, Rendition } from './processing-types.ts'
import { evenDown, evenWithin } from './picture-size.ts'

/**
 * The standard rungs, named by the picture's short side so a portrait video's "720p" is 720×1280.
 * Bit rates follow Apple's HLS authoring guidance for 30 fps H.264, a little lower at 720p/1080p where
 * x264 holds up well; docs/media-processing.md lists them.
 */
export const LADDER_RUNGS = [
  { shortSide: 360, videoBitRate: 800_000, audioBitRate: 96_000 },
  { shortSide: 720, videoBitRate: 2_800_000, audioBitRate: 128_000 },
  { shortSide: 1080, videoBitRate: 5_000_000, audioBitRate: 128_000 }
] as const

export const AUDIO_ONLY_BIT_RATE = 128_000
/** Faster sources (slow-motion phone video) are brought down to this rate. */
export const MAX_FRAME_RATE = 60
/**
 * A source whose short side is at least this much larger than the largest standard rung below it (and
 * below 1080) also gets a rendition at its own size: a 480p source gives 360p + 480p, a 400p source
 * only 360p. Sources smaller than 360p get one rendition at their own size. Nothing is ever upscaled.
 */
export const OWN_SIZE_FACTOR = 1.25
/** Peak rate and VBV buffer relative to the target: short peaks stay within 10 %, over 2 s of buffer. */
const MAX_RATE_FACTOR = 1.1
const BUFFER_SECONDS = 2

/** The renditions to make, lowest first: the first one is the one to publish first. */
export function planLadder (probe: ProbeResult): Rendition[] {
  const video = probe.streams.find((s) => s.type === 'video')
  const audio = probe.streams.find((s) => s.type === 'audio')
  if (video === undefined) {
    if (audio === undefined) throw new MediaRejectedError('The file has no video or audio stream.')
    return [{
      name: 'audio',
      kind: 'audio',
      width: null,
      height: null,
      maxFrameRate: null,
      videoBitRate: null,
      videoMaxRate: null,
      videoBufSize: null,
      level: null,
      audioBitRate: AUDIO_ONLY_BIT_RATE,
      videoStreamIndex: null,
      audioStreamIndex: audio.index,
      codecs: 'mp4a.40.2',
      sourceDurationMs: probe.durationMs
    }]
  }
  return videoRungs(video).map((rung) => videoRendition(probe, video, audio, rung))
}

interface PlannedRung { shortSide: number, videoBitRate: number, audioBitRate: number }

function videoRungs (video: ProbeStream): PlannedRung[] {
  const sourceShort = Math.min(video.displayWidth ?? 0, video.displayHeight ?? 0)
  const standard: PlannedRung[] = LADDER_RUNGS.filter((r) => r.shortSide <= sourceShort)
  const lowest = LADDER_RUNGS[0]
  const top = standard.at(-1)
  if (top === undefined) {
    // Smaller than 360p: one rendition at its own size, the bit rate scaled by area.
    const area = (sourceShort / lowest.shortSide) ** 2
    return [{ shortSide: evenDown(sourceShort), videoBitRate: Math.max(150_000, round1000(lowest.videoBitRate * area)), audioBitRate: lowest.audioBitRate }]
  }
  const next = LADDER_RUNGS.find((r) => r.shortSide > sourceShort)
  if (next !== undefined && sourceShort >= top.shortSide * OWN_SIZE_FACTOR) {
    // Between two rungs: a rendition at its own size, its bit rate interpolated along the short side.
    const t = (sourceShort - top.shortSide) / (next.shortSide - top.shortSide)
    standard.push({ shortSide: evenDown(sourceShort), videoBitRate: round1000(top.videoBitRate + t * (next.videoBitRate - top.videoBitRate)), audioBitRate: next.audioBitRate })
  }
  return standard
}

function videoRendition (probe: ProbeResult, video: ProbeStream, audio: ProbeStream | undefined, rung: PlannedRung): Rendition {
  const displayWidth = video.displayWidth ?? 0
  const displayHeight = video.displayHeight ?? 0
  const portrait = displayHeight > displayWidth
  // Sizes are upright (display orientation): ffmpeg rotates before it scales.
  const width = portrait ? rung.shortSide : evenWithin(displayWidth * rung.shortSide / displayHeight, displayWidth)
  const height = portrait ? evenWithin(displayHeight * rung.shortSide / displayWidth, displayHeight) : rung.shortSide
  const fasterThanMax = video.frameRate !== null && video.frameRate > MAX_FRAME_RATE
  const frameRate = video.frameRate === null || fasterThanMax ? MAX_FRAME_RATE : video.frameRate
  const level = h264Level(width, height, frameRate)
  const maxRate = round1000(rung.videoBitRate * MAX_RATE_FACTOR)
  return {
    name: `${rung.shortSide}p`,
    kind: 'video',
    width,
    height,
    maxFrameRate: fasterThanMax ? MAX_FRAME_RATE : null,
    videoBitRate: rung.videoBitRate,
    videoMaxRate: maxRate,
    videoBufSize: maxRate * BUFFER_SECONDS,
    level: level.name,
    audioBitRate: audio === undefined ? null : rung.audioBitRate,
    videoStreamIndex: video.index,
    audioStreamIndex: audio?.index ?? null,
    // High profile (0x64), no constraint flags, then the level: RFC 6381 `avc1.PPCCLL`.
    codecs: `avc1.6400${level.idc.toString(16).padStart(2, '0')}` + (audio === undefined ? '' : ',mp4a.40.2'),
    sourceDurationMs: probe.durationMs
  }
}

/**
 * The lowest H.264 level (ITU-T H.264 Table A-1) whose frame size and macroblock rate fit, so that the
 * CODECS attribute the master playlist announces is the level x264 writes (`-level:v`).
 */
const LEVELS = [
  { name: '3.0', idc: 30, maxFrameMbs: 1620, maxMbps: 40_500 },
  { name: '3.1', idc: 31, maxFrameMbs: 3600, maxMbps: 108_000 },
  { name: '3.2', idc: 32, maxFrameMbs: 5120, maxMbps: 216_000 },
  { name: '4.0', idc: 40, maxFrameMbs: 8192, maxMbps: 245_760 },
  { name: '4.2', idc: 42, maxFrameMbs: 8704, maxMbps: 522_240 },
  { name: '5.1', idc: 51, maxFrameMbs: 36_864, maxMbps: 983_040 }
] as const

export function h264Level (width: number, height: number, frameRate: number): { name: string, idc: number } {
  const frameMbs = Math.ceil(width / 16) * Math.ceil(height / 16)
  const longSideMbs = Math.ceil(Math.max(width, height) / 16)
  const level = LEVELS.find((l) => frameMbs <= l.maxFrameMbs && frameMbs * frameRate <= l.maxMbps && longSideMbs ** 2 <= 8 * l.maxFrameMbs)
  const { name, idc } = level ?? LEVELS[LEVELS.length - 1]
  return { name, idc }
}

function round1000 (value: number): number {
  return Math.round(value / 1000) * 1000
}
