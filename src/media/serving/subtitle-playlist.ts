/**
 * Segmented WebVTT for HLS (docs/captions.md, "In the stream"): a caption track's stored WebVTT cut into
 * segments of a fixed length, and the media playlist naming them, both rendered when requested. Each
 * segment carries `X-TIMESTAMP-MAP` tying its `LOCAL` zero to the MPEG-TS time at which the rendition's
 * media starts, so a cue at 00:00:05.000 shows five seconds into the media whatever the segments' first
 * PTS is.
 */

/** The length of a subtitle segment, in seconds (the last one is shorter). */
export const SUBTITLE_SEGMENT_SECONDS = 6
/** PTS values are 33 bits. */
const PTS_WRAP = 2 ** 33

/** A subtitle segment's file name: `segment-00000.vtt`. */
export const SUBTITLE_SEGMENT = /^segment-(\d{5})\.vtt$/

/** One cue of a stored WebVTT rendering: its times in ms and its text block (timing line settings kept). */
interface StoredCue {
  startMs: number
  endMs: number
  /** The timing line's settings after the end time (` line:0`), if any. */
  settings: string
  text: string
}

const TIMING = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})\s+-->\s+(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})(.*)$/

function ms (h: string | undefined, m: string, s: string, frac: string): number {
  return ((Number(h ?? 0) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(frac)
}

/**
 * The cues of a WebVTT file as the captions store renders it (checked on upload): blocks separated by
 * blank lines, each a timing line and its text; blocks without a timing line (the header, NOTEs,
 * STYLE) are left out.
 */
export function storedCues (webvtt: string): StoredCue[] {
  const cues: StoredCue[] = []
  for (const block of webvtt.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n')
    const at = lines.findIndex((line) => line.includes('-->'))
    if (at < 0) continue
    const t = TIMING.exec((lines[at] as string).trim())
    if (t === null) continue
    cues.push({
      startMs: ms(t[1], t[2] as string, t[3] as string, t[4] as string),
      endMs: ms(t[5], t[6] as string, t[7] as string, t[8] as string),
      settings: (t[9] ?? '').trimEnd(),
      text: lines.slice(at + 1).join('\n').trimEnd()
    })
  }
  return cues
}

/** `HH:MM:SS.mmm`. */
function clock (msTotal: number): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0')
  return `${pad(Math.floor(msTotal / 3_600_000))}:${pad(Math.floor(msTotal / 60_000) % 60)}:${pad(Math.floor(msTotal / 1000) % 60)}.${pad(msTotal % 1000, 3)}`
}

/** How long the subtitle playlist runs: the media's duration, else (media still growing) to the last cue's end; at least one segment. */
export function subtitleDurationMs (mediaDurationMs: number | null, cues: readonly StoredCue[]): number {
  const lastCue = cues.reduce((end, cue) => Math.max(end, cue.endMs), 0)
  return Math.max(mediaDurationMs ?? lastCue, 1)
}

/** The number of segments of a playlist of `durationMs`. */
export function segmentCount (durationMs: number): number {
  return Math.max(1, Math.ceil(durationMs / (SUBTITLE_SEGMENT_SECONDS * 1000)))
}

/**
 * The subtitle media playlist: a VOD playlist of `segment-NNNNN.vtt` files of SUBTITLE_SEGMENT_SECONDS
 * each over `durationMs` (the last one shorter).
 */
export function renderSubtitlePlaylist (durationMs: number): string {
  const count = segmentCount(durationMs)
  const step = SUBTITLE_SEGMENT_SECONDS * 1000
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${SUBTITLE_SEGMENT_SECONDS}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD']
  for (let i = 0; i < count; i++) {
    const length = Math.min(step, durationMs - i * step)
    lines.push(`#EXTINF:${(length / 1000).toFixed(3)},`, `segment-${String(i).padStart(5, '0')}.vtt`)
  }
  lines.push('#EXT-X-ENDLIST')
  return lines.join('\n') + '\n'
}

/**
 * Segment `index` of the track: every cue that shows during the segment's span (a cue spanning a border
 * is in each segment it overlaps, with its own times: players keep one of the copies), under the
 * timestamp map of `startPts` (the rendition's first PTS, 90 kHz). Null past the last segment.
 */
export function renderSubtitleSegment (cues: readonly StoredCue[], index: number, durationMs: number, startPts: number): string | null {
  if (!Number.isInteger(index) || index < 0 || index >= segmentCount(durationMs)) return null
  const step = SUBTITLE_SEGMENT_SECONDS * 1000
  const from = index * step
  // The last segment takes every cue that starts after it (a cue past the media's end never shows anyway).
  const to = index === segmentCount(durationMs) - 1 ? Infinity : from + step
  const inside = cues.filter((cue) => cue.startMs < to && cue.endMs > from)
  const mpegts = ((startPts % PTS_WRAP) + PTS_WRAP) % PTS_WRAP
  const head = `WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:${mpegts},LOCAL:00:00:00.000\n`
  return head + inside.map((cue) => `\n${clock(cue.startMs)} --> ${clock(cue.endMs)}${cue.settings}\n${cue.text}\n`).join('')
}
