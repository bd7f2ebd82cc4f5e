import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { firstPts } from '../../../src/media/serving/first-pts.ts'
import type { PlaylistRendition } from '../../../src/media/serving/master-playlist.ts'
import { renderMasterPlaylist } from '../../../src/media/serving/master-playlist.ts'
import { defaultTrack, subtitleOptions } from '../../../src/media/serving/subtitle-groups.ts'
import { renderSubtitlePlaylist, renderSubtitleSegment, storedCues, subtitleDurationMs } from '../../../src/media/serving/subtitle-playlist.ts'

/** A track as the captions store renders it. */
const TRACK = [
  'WEBVTT', '',
  '00:00:01.000 --> 00:00:02.500', 'Hello there.', '',
  '00:00:05.000 --> 00:00:07.000', 'Across the border,', 'two lines.', '',
  '00:00:12.000 --> 00:00:13.000 line:0', '<i>At twelve.</i>', ''
].join('\n')

const cueTimes = (segment: string | null): string[] => (segment ?? '').split('\n').filter((line) => line.includes('-->'))

describe('subtitle playlists', () => {
  it('cuts the media duration into 6 s segments, the last one shorter', () => {
    assert.equal(renderSubtitlePlaylist(14_500), [
      '#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:6', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD',
      '#EXTINF:6.000,', 'segment-00000.vtt', '#EXTINF:6.000,', 'segment-00001.vtt', '#EXTINF:2.500,', 'segment-00002.vtt',
      '#EXT-X-ENDLIST', ''
    ].join('\n'))
    assert.equal(renderSubtitlePlaylist(12_000).match(/segment-/g)?.length, 2, 'a duration on a border makes no empty segment')
  })

  it('runs for the media duration, else to the last cue', () => {
    const cues = storedCues(TRACK)
    assert.equal(subtitleDurationMs(20_000, cues), 20_000)
    assert.equal(subtitleDurationMs(null, cues), 13_000)
    assert.equal(subtitleDurationMs(null, []), 1)
  })

  it('maps LOCAL 0 to the rendition\'s first PTS, in every segment', () => {
    const cues = storedCues(TRACK)
    for (let i = 0; i < 3; i++) {
      const segment = renderSubtitleSegment(cues, i, 14_500, 131_280) as string
      assert.ok(segment.startsWith('WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:131280,LOCAL:00:00:00.000\n'), segment)
    }
    assert.match(renderSubtitleSegment(cues, 0, 14_500, 0) as string, /MPEGTS:0,LOCAL/)
    assert.match(renderSubtitleSegment(cues, 0, 14_500, 2 ** 33 + 5) as string, /MPEGTS:5,LOCAL/, 'PTS wraps at 33 bits')
  })

  it('puts each cue in every segment it shows in, with its own times and text', () => {
    const cues = storedCues(TRACK)
    const first = renderSubtitleSegment(cues, 0, 14_500, 126_000)
    const second = renderSubtitleSegment(cues, 1, 14_500, 126_000)
    const third = renderSubtitleSegment(cues, 2, 14_500, 126_000)
    assert.deepEqual(cueTimes(first), ['00:00:01.000 --> 00:00:02.500', '00:00:05.000 --> 00:00:07.000'])
    assert.deepEqual(cueTimes(second), ['00:00:05.000 --> 00:00:07.000'], 'the cue spanning 6 s is in both segments')
    assert.deepEqual(cueTimes(third), ['00:00:12.000 --> 00:00:13.000 line:0'], 'a cue starting on a border belongs to the segment after it')
    assert.match(first as string, /00:00:05.000 --> 00:00:07.000\nAcross the border,\ntwo lines.\n/)
    assert.match(third as string, /<i>At twelve.<\/i>/)
  })

  it('answers no segment past the last one, and an empty one where no cue shows', () => {
    const cues = storedCues(TRACK)
    assert.equal(renderSubtitleSegment(cues, 3, 14_500, 126_000), null)
    assert.equal(renderSubtitleSegment(cues, -1, 14_500, 126_000), null)
    assert.deepEqual(cueTimes(renderSubtitleSegment(storedCues('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nx\n'), 1, 14_500, 0)), [])
  })

  it('puts cues after the media\'s end in the last segment', () => {
    const cues = storedCues('WEBVTT\n\n00:00:20.000 --> 00:00:21.000\nlate\n')
    assert.deepEqual(cueTimes(renderSubtitleSegment(cues, 2, 14_500, 0)), ['00:00:20.000 --> 00:00:21.000'])
  })
})

describe('the first PTS of a segment', () => {
  /** One TS packet starting a PES of `streamId` with `pts`. */
  function pesPacket (pid: number, streamId: number, pts: number): Buffer {
    const packet = Buffer.alloc(188, 0xff)
    packet.set([0x47, 0x40 | (pid >> 8), pid & 0xff, 0x10, 0, 0, 1, streamId, 0, 0, 0x80, 0x80, 5])
    const bits = BigInt(pts)
    packet.set([
      0x21 | Number((bits >> 29n) & 0x0en), Number((bits >> 22n) & 0xffn), Number((bits >> 14n) & 0xfen) | 1,
      Number((bits >> 7n) & 0xffn), Number((bits << 1n) & 0xfen) | 1
    ], 13)
    return packet
  }

  /** A packet carrying a PSI section on `pid`. */
  function psiPacket (pid: number, section: number[]): Buffer {
    const packet = Buffer.alloc(188, 0xff)
    packet.set([0x47, 0x40 | (pid >> 8), pid & 0xff, 0x10, 0, ...section, 0, 0, 0, 0])
    return packet
  }
  const pat = psiPacket(0, [0x00, 0xb0, 13, 0, 1, 0xc1, 0, 0, 0, 1, 0xe1, 0x00])
  const pmt = psiPacket(0x100, [0x02, 0xb0, 23, 0, 1, 0xc1, 0, 0, 0xe1, 0x01, 0xf0, 0, 0x1b, 0xe1, 0x01, 0xf0, 0, 0x0f, 0xe1, 0x02, 0xf0, 0])

  it('is the earliest first PTS of the streams the programme lists, however late a stream\'s first PES comes', async () => {
    const filler = Array.from({ length: 1000 }, (_, i) => pesPacket(0x101, 0xe0, 140_000 + i))
    const head = Buffer.concat([pat, pmt, pesPacket(0x101, 0xe0, 133_200), ...filler, pesPacket(0x102, 0xc0, 131_280), pesPacket(0x101, 0xe0, 2 ** 32 + 7)])
    // Read in chunks that cut packets anywhere.
    const chunks = Array.from({ length: Math.ceil(head.length / 1000) }, (_, i) => head.subarray(i * 1000, (i + 1) * 1000))
    assert.equal(await firstPts(chunks), 131_280)
    assert.equal(await firstPts([Buffer.concat([pat, pmt, pesPacket(0x101, 0xe0, 133_200)])]), 133_200, 'a stream that never starts leaves the others')
    assert.equal(await firstPts([Buffer.concat([pat, pmt])]), null)
  })
})

describe('the master\'s SUBTITLES groups', () => {
  const rendition = (name: string, bandwidth: number): PlaylistRendition => ({
    name, kind: 'video', state: 'ready', width: 640, height: 360, bandwidth, average_bandwidth: null, codecs: 'avc1.64001e,mp4a.40.2', in_master: true, duration_ms: 10_000
  })
  const tracks = [{ language: 'en-US', name: 'English' }, { language: 'fr', name: 'Français "officiel"' }]
  const entries = [rendition('360p', 1_000_000), rendition('720p', 3_000_000)]

  it('is one group when every rendition starts at the same PTS, DEFAULT from the player\'s language', () => {
    const subs = subtitleOptions('v1', entries, new Map([['360p', 126_000], ['720p', 126_000]]), { tracks, defaultLanguage: 'en' })
    assert.ok(subs !== null)
    const master = renderMasterPlaylist('a', { assetId: 'b' }, 'v1', entries, subs.options) as string
    assert.equal(master, [
      '#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en-US",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,URI="captions/en-US/v1/360p/index.m3u8"',
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français \'officiel\'",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="captions/fr/v1/360p/index.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360,SUBTITLES="subs"', 'v1/360p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=3000000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360,SUBTITLES="subs"', 'v1/720p/index.m3u8', ''
    ].join('\n'))
  })

  it('gives a rendition that starts elsewhere (a stream copy) a group on its own timeline', () => {
    const subs = subtitleOptions('v1', entries, new Map([['360p', 126_000], ['720p', 131_280]]), { tracks: tracks.slice(0, 1), defaultLanguage: '' })
    const master = renderMasterPlaylist('a', { assetId: 'b' }, 'v1', entries, subs?.options) as string
    assert.match(master, /GROUP-ID="subs",NAME="English",LANGUAGE="en-US",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="captions\/en-US\/v1\/360p\/index.m3u8"/)
    assert.match(master, /GROUP-ID="subs-720p",NAME="English",LANGUAGE="en-US",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="captions\/en-US\/v1\/720p\/index.m3u8"/)
    assert.match(master, /RESOLUTION=640x360,SUBTITLES="subs"\nv1\/360p/)
    assert.match(master, /RESOLUTION=640x360,SUBTITLES="subs-720p"\nv1\/720p/)
    const same = subtitleOptions('v1', entries, new Map([['360p', 126_000], ['720p', 126_000]]), { tracks: tracks.slice(0, 1), defaultLanguage: '' })
    assert.notEqual(subs?.key, same?.key, 'the cached master is told apart by its groups')
  })

  it('has no group without a track', () => {
    assert.equal(subtitleOptions('v1', entries, new Map(), { tracks: [], defaultLanguage: 'en' }), null)
  })

  it('picks the default track by the whole tag, else by its primary language', () => {
    assert.equal(defaultTrack(tracks, 'fr')?.language, 'fr')
    assert.equal(defaultTrack(tracks, 'en-GB')?.language, 'en-US')
    assert.equal(defaultTrack(tracks, 'de'), undefined)
    assert.equal(defaultTrack(tracks, ''), undefined)
  })
})
