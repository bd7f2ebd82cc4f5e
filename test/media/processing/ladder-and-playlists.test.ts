import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { masterPlaylist, planLadder, type ProbeResult, type ProbeStream, type RenditionOutput } from '../../../src/media/processing/index.ts'
import { h264Level } from '../../../src/media/processing/ladder-plan.ts'
import { parseMediaPlaylist, peakBitRate, meanBitRate } from '../../../src/media/processing/media-playlist.ts'

function video (fields: Partial<ProbeStream>): ProbeStream {
  return {
    index: 0, type: 'video', codec: 'h264', width: 1920, height: 1080, rotation: 0, displayWidth: 1920, displayHeight: 1080,
    frameRate: 30, bitRate: null, sampleRate: null, channels: null, ...fields
  }
}
const audio: ProbeStream = {
  index: 1, type: 'audio', codec: 'aac', width: null, height: null, rotation: null, displayWidth: null, displayHeight: null,
  frameRate: null, bitRate: null, sampleRate: 48000, channels: 2
}
const probeOf = (...streams: ProbeStream[]): ProbeResult => ({ durationMs: 10_000, container: 'mp4', bitRate: null, streams })

describe('planning the ladder', () => {
  it('names portrait rungs by their short side and keeps them portrait', () => {
    const ladder = planLadder(probeOf(video({ width: 1920, height: 1080, rotation: 90, displayWidth: 1080, displayHeight: 1920 }), audio))
    assert.deepEqual(ladder.map((r) => [r.name, r.width, r.height, r.level]), [['360p', 360, 640, '3.0'], ['720p', 720, 1280, '3.1'], ['1080p', 1080, 1920, '4.0']])
  })

  it('caps a 4K source at 1080p and never upscales', () => {
    const ladder = planLadder(probeOf(video({ width: 3840, height: 2160, displayWidth: 3840, displayHeight: 2160 })))
    assert.deepEqual(ladder.map((r) => r.name), ['360p', '720p', '1080p'])
  })

  it('uses the display size of anamorphic video (sample aspect ratio applied)', () => {
    // PAL DV: 720×576 stored, 16:15 pixels → shown 768×576.
    const ladder = planLadder(probeOf(video({ width: 720, height: 576, displayWidth: 768, displayHeight: 576 })))
    assert.deepEqual(ladder.map((r) => [r.name, r.width, r.height]), [['360p', 480, 360], ['576p', 768, 576]])
    assert.ok((ladder[1]?.videoBitRate ?? 0) > (ladder[0]?.videoBitRate ?? 0) && (ladder[1]?.videoBitRate ?? 0) < 2_800_000, 'between 360p and 720p')
  })

  it('maps the chosen streams and gives an audio-only source one AAC rendition', () => {
    const [r] = planLadder(probeOf(video({ index: 2 }), { ...audio, index: 5 }))
    assert.deepEqual([r?.videoStreamIndex, r?.audioStreamIndex, r?.codecs], [2, 5, 'avc1.64001e,mp4a.40.2'])
    const ladder = planLadder(probeOf({ ...audio, index: 3 }))
    assert.deepEqual(ladder.map((x) => [x.name, x.kind, x.audioStreamIndex, x.videoStreamIndex, x.width]), [['audio', 'audio', 3, null, null]])
  })

  it('picks the lowest H.264 level whose frame size and macroblock rate fit', () => {
    assert.deepEqual(h264Level(640, 360, 30), { name: '3.0', idc: 30 })
    assert.deepEqual(h264Level(640, 360, 60), { name: '3.1', idc: 31 })
    assert.deepEqual(h264Level(1280, 720, 30), { name: '3.1', idc: 31 })
    assert.deepEqual(h264Level(1280, 720, 60), { name: '3.2', idc: 32 })
    assert.deepEqual(h264Level(1920, 1080, 30), { name: '4.0', idc: 40 })
    assert.deepEqual(h264Level(1920, 1080, 60), { name: '4.2', idc: 42 })
  })
})

describe('measuring a rendition for the master playlist', () => {
  const playlist = parseMediaPlaylist([
    '#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:6', '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXTINF:6.000000,', 'segment-00000.ts',
    '#EXTINF:6.000000,', 'segment-00001.ts',
    '#EXTINF:0.500000,', 'segment-00002.ts',
    '#EXT-X-ENDLIST', ''
  ].join('\n'))

  it('reads segments and their durations', () => {
    assert.equal(playlist.targetDurationSeconds, 6)
    assert.deepEqual(playlist.segments.map((s) => [s.uri, s.durationSeconds]), [['segment-00000.ts', 6], ['segment-00001.ts', 6], ['segment-00002.ts', 0.5]])
  })

  it('BANDWIDTH is the peak over runs of segments lasting 3–9 s, not a short last segment alone', () => {
    // 600 kB in 6 s = 800 kbit/s; 900 kB in 6 s = 1.2 Mbit/s; the 0.5 s tail alone (200 kB = 3.2 Mbit/s)
    // is too short to count, but with the segment before it: 1.1 MB in 6.5 s ≈ 1.354 Mbit/s.
    const sizes = [600_000, 900_000, 200_000]
    assert.equal(peakBitRate(playlist, sizes), Math.ceil(1_100_000 * 8 / 6.5))
    assert.equal(meanBitRate(playlist, sizes), Math.ceil(1_700_000 * 8 / 12.5))
  })

  it('a rendition shorter than half the target duration counts its mean rate as its peak', () => {
    const short = parseMediaPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:2.0,\nsegment-00000.ts\n#EXT-X-ENDLIST\n')
    assert.equal(peakBitRate(short, [100_000]), 400_000)
  })

  it('refuses text that is not a playlist, and a segment without a duration', () => {
    assert.throws(() => parseMediaPlaylist('hello'), /not an HLS playlist/)
    assert.throws(() => parseMediaPlaylist('#EXTM3U\nsegment.ts\n'), /has no EXTINF duration/)
  })

  it('the master lists renditions lowest first with BANDWIDTH, AVERAGE-BANDWIDTH, CODECS and RESOLUTION', () => {
    const ladder = planLadder(probeOf(video({}), audio))
    const outputs: RenditionOutput[] = ladder.map((rendition, i) => ({
      rendition, directory: `/out/${rendition.name}`, files: [], uri: `${rendition.name}/index.m3u8`, durationMs: 10_000,
      bandwidth: (3 - i) * 1_000_000, averageBandwidth: (3 - i) * 900_000
    })).reverse()
    assert.equal(masterPlaylist(outputs), [
      '#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=1000000,AVERAGE-BANDWIDTH=900000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080', '1080p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=2000000,AVERAGE-BANDWIDTH=1800000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720', '720p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2700000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360', '360p/index.m3u8',
      ''
    ].join('\n'))
    assert.throws(() => masterPlaylist([]), /at least one finished rendition/)
  })
})
