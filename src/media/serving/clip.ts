import { validationError } from '../../errors/api-error.ts'

/** An instant clip's range in seconds of the media, from `?start=S&end=E`. */
export interface ClipRange {
  start: number
  end: number
}

const SECONDS = '^(0|[1-9][0-9]{0,6})(\\.[0-9]{1,3})?$'
/** The query schema's pattern of `start` and `end`: seconds, at most three decimals. */
export const CLIP_SECONDS_PATTERN = SECONDS

/**
 * The clip a request asks for: both of `start` and `end` (seconds, `start` < `end`), or neither (the
 * whole media). A lone one, or an empty range, is refused.
 */
export function clipRange (query: { start?: string, end?: string }): ClipRange | null {
  if (query.start === undefined && query.end === undefined) return null
  if (query.start === undefined || query.end === undefined) {
    const missing = query.start === undefined ? 'start' : 'end'
    throw validationError(`Parameter ${missing}: a clip needs both start and end.`, { [missing]: ['is required with the other'] })
  }
  const start = Number(query.start)
  const end = Number(query.end)
  if (!(end > start)) throw validationError('Parameter end: must be after start.', { end: ['must be after start'] })
  return { start, end }
}

/** The query a clip's URIs carry, so the playlists they lead to are cut the same way. */
export function clipQuery (range: ClipRange): string {
  return `start=${range.start}&end=${range.end}`
}

/**
 * A media playlist cut to the segments that cover `range` (no re-encode: whole segments, so the clip
 * starts at most one segment early and ends at most one segment late). The media sequence is the first
 * kept segment's; the cut is VOD with `ENDLIST` once every segment covering the end exists (or the
 * playlist is complete), else it stays an EVENT playlist that grows up to the range's end.
 */
export function cutMediaPlaylist (text: string, range: ClipRange): string {
  const lines = text.split('\n')
  const header: string[] = []
  const kept: string[] = []
  let time = 0
  let index = 0
  let firstKept: number | null = null
  let pending: string | null = null
  let coversEnd = false
  // An encrypted playlist's key in force, until a kept segment has carried it: the first kept segment
  // needs it, and each later one where it changes.
  let key: string | null = null
  const complete = lines.includes('#EXT-X-ENDLIST')
  for (const line of lines) {
    if (line.startsWith('#EXT-X-KEY:')) { key = line; continue }
    if (line.startsWith('#EXTINF:')) { pending = line; continue }
    if (pending !== null && line !== '' && !line.startsWith('#')) {
      const duration = Number.parseFloat(pending.slice('#EXTINF:'.length))
      if (time + duration > range.start && time < range.end) {
        if (key !== null) kept.push(key)
        key = null
        firstKept ??= index
        kept.push(pending, line)
      }
      time += duration
      if (time >= range.end) coversEnd = true
      index += 1
      pending = null
      continue
    }
    if (line === '#EXT-X-ENDLIST' || line === '' || kept.length > 0 || index > 0) continue
    header.push(line)
  }
  const finished = complete || coversEnd
  const head = header.map((line) => {
    if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) return `#EXT-X-MEDIA-SEQUENCE:${firstKept ?? index}`
    if (line.startsWith('#EXT-X-PLAYLIST-TYPE:')) return `#EXT-X-PLAYLIST-TYPE:${finished ? 'VOD' : 'EVENT'}`
    return line
  })
  return [...head, ...kept, ...(finished ? ['#EXT-X-ENDLIST'] : [])].join('\n') + '\n'
}
