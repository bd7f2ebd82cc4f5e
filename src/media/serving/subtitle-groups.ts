import { hash } from 'node:crypto'
import type { MasterPlaylistOptions, PlaylistRendition } from './master-playlist.ts'

/** A caption track as the master names it. */
export interface SubtitleTrack {
  language: string
  name: string
}

/** An asset's tracks and the caption language its player sets ('' when none). */
export interface AssetSubtitles {
  tracks: SubtitleTrack[]
  defaultLanguage: string
}

/** The group of the renditions sharing the first listed rendition's first PTS: the common case, the only group. */
export const SUBTITLE_GROUP = 'subs'

/** A value of an `#EXT-X-MEDIA` quoted attribute: no quotes, no line breaks. */
function quoted (text: string): string {
  return `"${text.replace(/["\r\n]/g, (c) => c === '"' ? '\'' : ' ')}"`
}

/**
 * The track DEFAULT=YES falls on: the one in the player's caption language, else the first whose
 * primary language is the same (`en` picks `en-US`); none when the player names no language.
 */
export function defaultTrack (tracks: readonly SubtitleTrack[], language: string): SubtitleTrack | undefined {
  if (language === '') return undefined
  const wanted = language.toLowerCase()
  const primary = wanted.split('-')[0]
  return tracks.find((t) => t.language.toLowerCase() === wanted) ?? tracks.find((t) => t.language.toLowerCase().split('-')[0] === primary)
}

/**
 * What the master carries for the asset's caption tracks: one SUBTITLES group per distinct first PTS of
 * the master's renditions (`starts`, by rendition name; one group, `subs`, when they all start at the
 * same instant), each listing every track with a playlist on the timeline of that group's first
 * rendition, and `SUBTITLES="<group>"` on each variant. `entries` are the master's renditions in the
 * order it lists them. Null when the asset has no track.
 */
export function subtitleOptions (
  version: string, entries: readonly PlaylistRendition[], starts: ReadonlyMap<string, number | null>, subtitles: AssetSubtitles, prefix = ''
): { key: string, options: MasterPlaylistOptions } | null {
  if (subtitles.tracks.length === 0 || entries.length === 0) return null
  const first = entries[0] as PlaylistRendition
  const firstStart = starts.get(first.name) ?? null
  /** Group id by first PTS, and the rendition whose timeline each group's playlists follow. */
  const groups = new Map<number | null, { id: string, rendition: string }>([[firstStart, { id: SUBTITLE_GROUP, rendition: first.name }]])
  const groupOf = new Map<string, string>()
  for (const r of entries) {
    const start = starts.get(r.name) ?? firstStart
    let group = groups.get(start)
    if (group === undefined) groups.set(start, group = { id: `${SUBTITLE_GROUP}-${r.name}`, rendition: r.name })
    groupOf.set(r.name, group.id)
  }
  const chosen = defaultTrack(subtitles.tracks, subtitles.defaultLanguage)
  const names = new Set<string>()
  const named = subtitles.tracks.map((t) => {
    // NAME is unique within a group.
    const name = names.has(t.name) ? `${t.name} (${t.language})` : t.name
    names.add(name)
    return { ...t, name }
  })
  const mediaLines = [...groups.values()].flatMap((group) => named.map((t) => [
    '#EXT-X-MEDIA:TYPE=SUBTITLES', `GROUP-ID="${group.id}"`, `NAME=${quoted(t.name)}`, `LANGUAGE=${quoted(t.language)}`,
    `DEFAULT=${t.language === chosen?.language ? 'YES' : 'NO'}`, 'AUTOSELECT=YES', 'FORCED=NO',
    `URI="${prefix}captions/${encodeURIComponent(t.language)}/${version}/${group.rendition}/index.m3u8"`
  ].join(',')))
  return {
    key: `subs:${hash('sha1', [...mediaLines, ...groupOf.entries()].join('\n'), 'base64url')}`,
    options: { mediaLines, streamAttributes: (r) => [`SUBTITLES="${groupOf.get(r.name) ?? SUBTITLE_GROUP}"`] }
  }
}
