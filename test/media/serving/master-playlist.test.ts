import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { inMaster, renderMasterPlaylist, type PlaylistRendition } from '../../../src/media/serving/master-playlist.ts'

const rendition = (name: string, overrides: Partial<PlaylistRendition> = {}): PlaylistRendition => ({
  name, kind: 'video', state: 'processing', width: 640, height: 360, bandwidth: 1_000_000, average_bandwidth: 900_000, codecs: 'avc1.64001e,mp4a.40.2', in_master: true, ...overrides
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
