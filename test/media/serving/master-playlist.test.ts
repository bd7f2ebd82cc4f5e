import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { renderMediaPlaylist } from '../../../src/media/processing/index.ts'
import { clipRange, cutMediaPlaylist } from '../../../src/media/serving/clip.ts'
import { inMaster, renderMasterPlaylist, type PlaylistRendition } from '../../../src/media/serving/master-playlist.ts'

const rendition = (name: string, overrides: Partial<PlaylistRendition> = {}): PlaylistRendition => ({
  name, kind: 'video', state: 'processing', width: 640, height: 360, bandwidth: 1_000_000, average_bandwidth: 900_000, codecs: 'avc1.64001e,mp4a.40.2', in_master: true, duration_ms: null, ...overrides
})

/** The master is rendered from the version's rendition rows (docs/media.md, "Growing playlists"). */
describe('renderMasterPlaylist', () => {
  it('names the renditions that entered it, lowest bandwidth first, relative to the master', () => {
    const rows = [
      rendition('720p', { width: 1280, height: 720, bandwidth: 3_000_000, average_bandwidth: 2_500_000, codecs: 'avc1.64001f,mp4a.40.2' }),
      rendition('360p'),
      rendition('1080p', { in_master: false, bandwidth: null, state: 'processing' }),
      rendition('480p', { state: 'failed' })
    ]
    assert.equal(renderMasterPlaylist('acc', { assetId: 'a' }, 'v1', rows), [
      '#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=1000000,AVERAGE-BANDWIDTH=900000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360', 'v1/360p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2500000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720', 'v1/720p/index.m3u8',
      ''
    ].join('\n'))
  })

  it('is null before any rendition entered it; rows without the mark count when ready', () => {
    assert.equal(renderMasterPlaylist('acc', { assetId: 'a' }, 'v1', [rendition('360p', { in_master: false })]), null)
    const { in_master: _, ...legacy } = rendition('audio', { kind: 'audio', state: 'ready', width: null, height: null, codecs: 'mp4a.40.2' })
    assert.deepEqual(inMaster([legacy, { ...legacy, name: 'x', state: 'processing' }]).map((r) => r.name), ['audio'])
    assert.doesNotMatch(renderMasterPlaylist('acc', { assetId: 'a' }, 'v1', [legacy]) as string, /RESOLUTION/)
  })

  it('takes hooks: each child URI rewritten, extra media lines and stream attributes', () => {
    const text = renderMasterPlaylist('acc', { assetId: 'a' }, 'v1', [rendition('360p')], {
      childUri: (uri, r) => `${uri}?token=t-${r.name}`,
      mediaLines: ['#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="v1/subtitles/en.m3u8"'],
      streamAttributes: () => ['SUBTITLES="subs"']
    }) as string
    const lines = text.split('\n')
    assert.equal(lines[3], '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="v1/subtitles/en.m3u8"')
    assert.match(lines[4] as string, /,SUBTITLES="subs"$/)
    assert.equal(lines[5], 'v1/360p/index.m3u8?token=t-360p')
  })
})

describe('instant clips: a media playlist cut to a range', () => {
  // The ladder's borders: 2 s, 2 s, then 6 s each.
  const durations = [2, 2, 6, 6, 6, 6, 3.5]
  const segments = durations.map((d, i) => ({ uri: `segment-${String(i).padStart(5, '0')}.ts`, durationSeconds: d, bytes: 1000 }))
  const played = (text: string): { total: number, first: string | undefined, longest: number } => {
    const lines = text.split('\n')
    const kept = lines.filter((l) => l.startsWith('#EXTINF:')).map((l) => Number.parseFloat(l.slice(8)))
    return { total: kept.reduce((a, b) => a + b, 0), first: lines.find((l) => l.endsWith('.ts')), longest: Math.max(...kept) }
  }

  it('keeps the whole segments covering the range: its duration is within one segment of the range', () => {
    for (const [start, end] of [[0, 4], [3, 13], [10.5, 11], [20, 40], [0, 31.5]] as const) {
      const cut = cutMediaPlaylist(renderMediaPlaylist(segments, 6, true), { start, end })
      const { total, longest } = played(cut)
      assert.ok(total >= Math.min(end, 31.5) - start && total - (Math.min(end, 31.5) - start) <= 2 * longest, `${start}–${end}: ${total} s`)
      assert.ok(total - (end - start) <= longest * 2 && (end - start) - total <= longest, `${start}–${end}: ${total} s within a segment each side`)
      assert.match(cut, /#EXT-X-PLAYLIST-TYPE:VOD\n/)
      assert.match(cut, /#EXT-X-ENDLIST\n$/)
    }
    const cut = cutMediaPlaylist(renderMediaPlaylist(segments, 6, true), { start: 5, end: 9 })
    assert.equal(played(cut).first, 'segment-00002.ts')
    assert.match(cut, /#EXT-X-MEDIA-SEQUENCE:2\n/)
  })

  it('stays a growing EVENT playlist while the segments covering the end are not all made', () => {
    const growing = renderMediaPlaylist(segments.slice(0, 3), 6, false)
    assert.match(cutMediaPlaylist(growing, { start: 3, end: 20 }), /#EXT-X-PLAYLIST-TYPE:EVENT\n[\s\S]*segment-00002\.ts\n$/)
    assert.match(cutMediaPlaylist(growing, { start: 0, end: 4 }), /#EXT-X-ENDLIST\n$/)
  })

  it('needs both ends, in order', () => {
    assert.equal(clipRange({}), null)
    assert.deepEqual(clipRange({ start: '1.5', end: '3' }), { start: 1.5, end: 3 })
    assert.throws(() => clipRange({ start: '1' }), /a clip needs both start and end/)
    assert.throws(() => clipRange({ start: '3', end: '3' }), /must be after start/)
  })
})
