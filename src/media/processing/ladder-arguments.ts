import { FORMAT_WHITELIST, KEY_FRAME_SECONDS, SEGMENT_PATTERN, SEGMENT_SECONDS, X264_PRESET, type RunContext } from './ffmpeg-arguments.ts'
import type { Rendition } from './processing-types.ts'
import { framesFilter, framesOutput, storyboardFilter, storyboardOutput, type StoryboardPlan } from './storyboard.ts'

/**
 * The argument lists of the ladder (docs/media.md, "One decode for the ladder"): one stream-copy run for
 * standard input, and one run that decodes the source once for every encoded rendition. Each rendition
 * is written by ffmpeg's `segment` muxer into its own folder, with a CSV list that grows by one line as
 * each segment is closed; the worker reads that list, publishes the finished segments and writes the
 * HLS playlists itself (EVENT while the rendition grows, VOD once it is complete).
 */

/** The list ffmpeg appends to after each closed segment: `segment-00000.ts,0.000000,2.000000`. */
export const SEGMENT_LIST_FILE = 'segments.csv'
/**
 * Segment borders in seconds: two short segments first (2 s, 2 s), so a player can start after a few
 * seconds of encoding, then 6 s each. The same times are given to every run of a job, so borders are the
 * same in every rendition.
 */
const FIRST_SEGMENT_SECONDS = [2, 2] as const

export function segmentTimes (durationMs: number): number[] {
  const times: number[] = []
  let t = 0
  for (const first of FIRST_SEGMENT_SECONDS) {
    t += first
    times.push(t)
  }
  // At least one border past the claimed end: a file longer than its header says is still cut every 6 s.
  while (t * 1000 < durationMs + SEGMENT_SECONDS * 1000) {
    t += SEGMENT_SECONDS
    times.push(t)
  }
  return times
}

const QUIET = ['-hide_banner', '-loglevel', 'error']

/** The same guards as every other run: local files only, whitelisted demuxers, `file:` input. */
function guardedInput (run: RunContext): string[] {
  return ['-protocol_whitelist', 'file', '-format_whitelist', FORMAT_WHITELIST, '-threads', String(run.threads), '-i', `file:${run.input}`]
}

function segmentOutput (run: RunContext, name: string, times: number[]): string[] {
  return [
    '-f', 'segment', '-segment_format', 'mpegts', '-segment_times', times.join(','),
    '-segment_list', `${run.outDir}/${name}/${SEGMENT_LIST_FILE}`, '-segment_list_type', 'csv',
    '-y', `${run.outDir}/${name}/${SEGMENT_PATTERN}`
  ]
}

/**
 * Standard input: the source's own video and audio copied into MPEG-TS segments, cut at its first key
 * frame after each border. No decoding, so it runs at the speed of the disk.
 */
export function copyArgs (run: RunContext, r: Rendition, times: number[]): string[] {
  return [
    '-nostdin', ...QUIET,
    ...guardedInput(run),
    ...streamMaps(r), '-map_metadata', '-1', '-map_chapters', '-1',
    '-c', 'copy',
    ...segmentOutput(run, r.name, times)
  ]
}

/**
 * Every encoded rendition from one decode: the video is split once per rendition and scaled, and each
 * output has its own x264 (and AAC) encoder and segment muxer. `keyFrames` is `source` when a copied
 * rendition sits beside them (their key frames must fall where the source's do, so borders match), else
 * a key frame every 2 s. Scene-cut key frames are off: they would move borders between renditions.
 * `readRate` (tests only) paces the reading of the input, as a multiple of real time.
 */
export function ladderArgs (run: RunContext, renditions: Rendition[], times: number[], keyFrames: 'source' | 'interval', readRate = 0, storyboard: LadderStoryboard | null = null): string[] {
  const video = renditions.filter((r) => r.kind === 'video')
  const graph = video.length === 0 && storyboard === null
    ? []
    : ['-filter_complex', filterGraph(video, storyboard)]
  const outputs = renditions.flatMap((r) => {
    const videoIndex = video.indexOf(r)
    return [
      ...(videoIndex >= 0 ? ['-map', `[v${videoIndex}]`] : []),
      ...(r.audioStreamIndex === null ? [] : ['-map', `0:${r.audioStreamIndex}`]),
      '-map_metadata', '-1', '-map_chapters', '-1',
      ...(videoIndex >= 0 ? videoEncoding(r, run.threads, keyFrames) : ['-vn']),
      ...(r.audioBitRate === null ? ['-an'] : ['-c:a', 'aac', '-b:a', String(r.audioBitRate), '-ac', '2', '-ar', '48000']),
      ...segmentOutput(run, r.name, times)
    ]
  })
  const pacing = readRate > 0 ? ['-readrate', String(readRate)] : []
  const sheets = storyboard === null ? [] : [...storyboardOutput(run, STORYBOARD_LABEL), ...framesOutput(run, FRAMES_LABEL)]
  return ['-nostdin', ...QUIET, ...pacing, ...guardedInput(run), ...graph, ...outputs, ...sheets]
}

function streamMaps (r: Rendition): string[] {
  return [
    ...(r.videoStreamIndex === null ? [] : ['-map', `0:${r.videoStreamIndex}`]),
    ...(r.audioStreamIndex === null ? [] : ['-map', `0:${r.audioStreamIndex}`])
  ]
}

/** The storyboard made by one more branch of the same decode, and the source's video stream it reads. */
export interface LadderStoryboard {
  plan: StoryboardPlan
  videoStreamIndex: number
}

const STORYBOARD_LABEL = 'sb'
const FRAMES_LABEL = 'fr'

/**
 * `[0:1]split=3[s0][s1][s2];[s0]scale=640:360,setsar=1[v0];[s1]…[v1];[s2]fps=1/2,scale=160:90,setsar=1,tile=5x5[sb]`
 * (ffmpeg applies rotation before it): one branch per encoded rendition, one for the storyboard and one
 * for the generated preview images (`[fr]`).
 */
function filterGraph (video: Rendition[], storyboard: LadderStoryboard | null): string {
  const source = `[0:${video[0]?.videoStreamIndex ?? storyboard?.videoStreamIndex ?? 0}]`
  const chains = video.map((r, i) => {
    if (r.width === null || r.height === null) throw new Error(`rendition ${r.name} is a video rendition without a size`)
    const filters = [...(r.maxFrameRate === null ? [] : [`fps=${r.maxFrameRate}`]), `scale=${r.width}:${r.height}`, 'setsar=1']
    return `[s${i}]${filters.join(',')}[v${i}]`
  })
  if (storyboard !== null) {
    chains.push(`[s${video.length}]${storyboardFilter(storyboard.plan)}[${STORYBOARD_LABEL}]`)
    chains.push(`[s${video.length + 1}]${framesFilter(storyboard.plan)}[${FRAMES_LABEL}]`)
  }
  const branches = chains.length
  const split = `${source}split=${branches}${chains.map((_, i) => `[s${i}]`).join('')}`
  return [split, ...chains].join(';')
}

function videoEncoding (r: Rendition, threads: number, keyFrames: 'source' | 'interval'): string[] {
  if (r.videoBitRate === null || r.videoMaxRate === null || r.videoBufSize === null || r.level === null) {
    throw new Error(`rendition ${r.name} is a video rendition without a bit rate or level`)
  }
  return [
    '-c:v', 'libx264', '-preset', X264_PRESET, '-profile:v', 'high', '-level:v', r.level, '-pix_fmt', 'yuv420p', '-threads', String(threads),
    '-b:v', String(r.videoBitRate), '-maxrate', String(r.videoMaxRate), '-bufsize', String(r.videoBufSize),
    '-sc_threshold', '0',
    // Following the source: no key frame of x264's own choosing (its default is one every 250 frames).
    ...(keyFrames === 'source' ? ['-g', '100000', '-force_key_frames', 'source'] : ['-force_key_frames', `expr:gte(t,n_forced*${KEY_FRAME_SECONDS})`])
  ]
}
