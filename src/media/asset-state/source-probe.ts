import type { ProbeResult } from '../processing/index.ts'

/**
 * What the probe found, as `source_file_info` shows it beside the upload's name and size: duration in
 * ms, container, overall bit rate, and each video and audio stream with its codec, size and rates.
 */
export function toSourceProbe (probe: ProbeResult): Record<string, unknown> {
  return {
    duration: probe.durationMs,
    container: probe.container,
    bit_rate: probe.bitRate,
    streams: probe.streams.map((s) => ({
      type: s.type,
      codec: s.codec,
      width: s.width,
      height: s.height,
      display_width: s.displayWidth,
      display_height: s.displayHeight,
      rotation: s.rotation,
      frame_rate: s.frameRate,
      bit_rate: s.bitRate,
      sample_rate: s.sampleRate,
      channels: s.channels
    }))
  }
}
