/**
 * Reads ffmpeg's `-progress pipe:1` report: blocks of `key=value` lines, each ending in
 * `progress=continue` (or `progress=end`). `out_time_us` is the position reached in the output.
 * Answers a line handler that calls `onProgress` with 0..1 whenever the position moves forward;
 * 1 itself is left to the caller, once the output is known to be complete.
 */
export function progressLines (durationMs: number, onProgress: ((fraction: number) => void) | undefined): ((line: string) => void) | undefined {
  if (onProgress === undefined || durationMs <= 0) return undefined
  let reported = 0
  return (line) => {
    const match = /^out_time_us=(\d+)$/.exec(line)
    if (match === null) return
    const fraction = Math.min(0.999, Number(match[1]) / 1000 / durationMs)
    if (fraction > reported) {
      reported = fraction
      onProgress(fraction)
    }
  }
}
