/** Reading back the media playlists ffmpeg wrote, to measure what the master playlist announces. */

export interface MediaPlaylistSegment {
  uri: string
  durationSeconds: number
}

export interface MediaPlaylist {
  targetDurationSeconds: number
  segments: MediaPlaylistSegment[]
}

export function parseMediaPlaylist (text: string): MediaPlaylist {
  const lines = text.split(/\r?\n/).map((line) => line.trim())
  if (lines[0] !== '#EXTM3U') throw new Error('not an HLS playlist')
  let targetDurationSeconds = 0
  let pendingDuration: number | null = null
  const segments: MediaPlaylistSegment[] = []
  for (const line of lines) {
    if (line.startsWith('#EXT-X-TARGETDURATION:')) targetDurationSeconds = Number(line.slice('#EXT-X-TARGETDURATION:'.length))
    else if (line.startsWith('#EXTINF:')) pendingDuration = Number.parseFloat(line.slice('#EXTINF:'.length))
    else if (line !== '' && !line.startsWith('#')) {
      if (pendingDuration === null || !Number.isFinite(pendingDuration)) throw new Error(`segment ${line} has no EXTINF duration`)
      segments.push({ uri: line, durationSeconds: pendingDuration })
      pendingDuration = null
    }
  }
  return { targetDurationSeconds, segments }
}

/**
 * RFC 8216 §4.3.4.2: BANDWIDTH is the peak segment bit rate, "the largest bit rate of any contiguous set
 * of segments whose total duration is between 0.5 and 1.5 times the target duration". A rendition
 * shorter than half the target has no such set; its mean rate is its peak.
 */
export function peakBitRate (playlist: MediaPlaylist, sizes: number[]): number {
  const { segments, targetDurationSeconds } = playlist
  const low = 0.5 * targetDurationSeconds
  const high = 1.5 * targetDurationSeconds
  let peak = 0
  for (let first = 0; first < segments.length; first++) {
    let seconds = 0
    let bytes = 0
    for (let last = first; last < segments.length; last++) {
      seconds += segments[last]?.durationSeconds ?? 0
      bytes += sizes[last] ?? 0
      if (seconds > high) break
      if (seconds >= low) peak = Math.max(peak, (bytes * 8) / seconds)
    }
  }
  return Math.ceil(peak > 0 ? peak : meanBitRate(playlist, sizes))
}

export function meanBitRate (playlist: MediaPlaylist, sizes: number[]): number {
  const seconds = totalSeconds(playlist)
  const bytes = sizes.reduce((sum, size) => sum + size, 0)
  return seconds > 0 ? Math.ceil((bytes * 8) / seconds) : 0
}

export function totalSeconds (playlist: MediaPlaylist): number {
  return playlist.segments.reduce((sum, s) => sum + s.durationSeconds, 0)
}

/** An encrypted rendition's keys: a new `#EXT-X-KEY` line opens every run of `every` segments. */
export interface MediaPlaylistKeys {
  every: number
  /** The key line of the `index`th run. */
  line: (index: number) => string
}

/**
 * A rendition's media playlist as the worker publishes it (docs/media.md, "Growing playlists"): an
 * EVENT playlist while its rendition grows, starting players at 0 (`EXT-X-START:TIME-OFFSET=0`, else a
 * player would join at the live edge), and VOD with `ENDLIST` once it is complete. The target duration
 * is fixed for the whole life of the playlist (RFC 8216 forbids changing it between reloads). With `keys`
 * (an encrypted version) each run of segments is preceded by its key (docs/playback.md, "Encryption").
 */
export function renderMediaPlaylist (segments: MediaPlaylistSegment[], targetDurationSeconds: number, complete: boolean, keys: MediaPlaylistKeys | null = null): string {
  const target = Math.max(targetDurationSeconds, ...segments.map((s) => Math.round(s.durationSeconds)), 1)
  const lines = [
    '#EXTM3U', '#EXT-X-VERSION:6', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0',
    `#EXT-X-PLAYLIST-TYPE:${complete ? 'VOD' : 'EVENT'}`, '#EXT-X-INDEPENDENT-SEGMENTS', '#EXT-X-START:TIME-OFFSET=0'
  ]
  segments.forEach((s, sequence) => {
    if (keys !== null && sequence % keys.every === 0) lines.push(keys.line(sequence / keys.every))
    lines.push(`#EXTINF:${s.durationSeconds.toFixed(6)},`, s.uri)
  })
  if (complete) lines.push('#EXT-X-ENDLIST')
  return lines.join('\n') + '\n'
}
