/** H.264 4:2:0 and JPEG 4:2:0 need even sizes; nothing is ever made larger than its source. */

/** The largest even number not above `value` (at least 2). */
export function evenDown (value: number): number {
  return Math.max(2, Math.floor(value / 2) * 2)
}

/** The nearest even number to `value`, never past `limit` rounded down to even. */
export function evenWithin (value: number, limit: number): number {
  return Math.max(2, Math.min(Math.round(value / 2) * 2, evenDown(limit)))
}
