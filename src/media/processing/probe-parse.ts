import type { ProbeStream } from './processing-types.ts'

/** The part of ffprobe's JSON that `probeArgs` asks for. Every field may be missing on odd files. */
export interface FfprobeOutput {
  format?: { format_name?: string, duration?: string, bit_rate?: string, tags?: { major_brand?: string } }
  streams?: FfprobeStream[]
}

interface FfprobeStream {
  index?: number
  codec_type?: string
  codec_name?: string
  width?: number
  height?: number
  sample_aspect_ratio?: string
  avg_frame_rate?: string
  r_frame_rate?: string
  bit_rate?: string
  sample_rate?: string
  channels?: number
  disposition?: { attached_pic?: number }
  tags?: { rotate?: string }
  side_data_list?: Array<{ rotation?: number }>
}

/** Video streams (not cover art) first, then audio streams; subtitles and data are not media we play. */
export function toProbeStreams (output: FfprobeOutput): ProbeStream[] {
  const streams = output.streams ?? []
  const video = streams.filter((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1).map(videoStream)
  const audio = streams.filter((s) => s.codec_type === 'audio').map(audioStream)
  return [...video, ...audio]
}

function videoStream (s: FfprobeStream): ProbeStream {
  const width = positive(s.width)
  const height = positive(s.height)
  const rotation = rotationOf(s)
  const [sarNum, sarDen] = ratio(s.sample_aspect_ratio)
  // A sample aspect ratio of 0:1 means "unknown", i.e. square pixels.
  const sar = sarNum > 0 && sarDen > 0 ? sarNum / sarDen : 1
  const shownWidth = width === null ? null : Math.round(width * sar)
  const quarterTurn = rotation === 90 || rotation === 270
  return {
    index: s.index ?? 0,
    type: 'video',
    codec: s.codec_name ?? 'unknown',
    width,
    height,
    rotation,
    displayWidth: quarterTurn ? height : shownWidth,
    displayHeight: quarterTurn ? shownWidth : height,
    frameRate: frameRate(s.avg_frame_rate) ?? frameRate(s.r_frame_rate),
    bitRate: integer(s.bit_rate),
    sampleRate: null,
    channels: null
  }
}

function audioStream (s: FfprobeStream): ProbeStream {
  return {
    index: s.index ?? 0,
    type: 'audio',
    codec: s.codec_name ?? 'unknown',
    width: null,
    height: null,
    rotation: null,
    displayWidth: null,
    displayHeight: null,
    frameRate: null,
    bitRate: integer(s.bit_rate),
    sampleRate: integer(s.sample_rate),
    channels: positive(s.channels)
  }
}

/**
 * The display matrix's counter-clockwise rotation (ffprobe's `rotation`), else the older `rotate` tag
 * (clockwise), as 0/90/180/270. ffmpeg itself rotates only within 1° of a quarter turn, so other angles
 * round to the nearest degree and keep the stored size.
 */
function rotationOf (s: FfprobeStream): number {
  const fromMatrix = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation
  const fromTag = s.tags?.rotate === undefined ? undefined : -Number(s.tags.rotate)
  const degrees = fromMatrix ?? (fromTag !== undefined && Number.isFinite(fromTag) ? fromTag : 0)
  return ((Math.round(degrees) % 360) + 360) % 360
}

/** `mov,mp4,m4a,3gp,3g2,mj2` and `matroska,webm` name a family; the brand and the codecs name the member. */
export function containerName (output: FfprobeOutput, streams: ProbeStream[]): string {
  const formatName = output.format?.format_name ?? 'unknown'
  if (formatName.startsWith('mov,')) {
    const brand = (output.format?.tags?.major_brand ?? '').trim().toLowerCase()
    if (brand === 'qt') return 'mov'
    if (brand.startsWith('m4a') || brand.startsWith('m4b')) return 'm4a'
    if (brand.startsWith('3g')) return '3gp'
    return 'mp4'
  }
  if (formatName === 'matroska,webm') {
    const webmCodecs = new Set(['vp8', 'vp9', 'av1', 'opus', 'vorbis'])
    return streams.length > 0 && streams.every((s) => webmCodecs.has(s.codec)) ? 'webm' : 'mkv'
  }
  return formatName.split(',')[0] ?? formatName
}

/** Seconds as ffprobe prints them ("6.000000") to whole milliseconds; null when absent or not positive. */
export function durationMsOf (seconds: string | undefined): number | null {
  const value = Number(seconds)
  return seconds !== undefined && Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : null
}

function frameRate (text: string | undefined): number | null {
  const [num, den] = ratio(text)
  return num > 0 && den > 0 ? Math.round((num / den) * 1000) / 1000 : null
}

function ratio (text: string | undefined): [number, number] {
  const match = /^(\d+)[:/](\d+)$/.exec(text ?? '')
  return match === null ? [0, 0] : [Number(match[1]), Number(match[2])]
}

function integer (text: string | undefined): number | null {
  const value = Number(text)
  return text !== undefined && Number.isSafeInteger(value) && value > 0 ? value : null
}

function positive (value: number | undefined): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null
}
