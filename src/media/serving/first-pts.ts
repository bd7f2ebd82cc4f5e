import type { MediaStore } from '../store/index.ts'
import { MediaNotFoundError } from '../store/index.ts'

/** How much of a first segment is read to find its first PTS: its first frames of every stream are there. */
const HEAD_BYTES = 64 * 1024
const PACKET = 188

/**
 * The earliest PTS (90 kHz) among the PES packets that start in `head` (the first bytes of an MPEG-TS
 * segment), audio and video alike: the instant a player's timeline starts from (hls.js takes the earliest
 * of the first audio and video samples). Null when `head` holds no PES with a PTS.
 */
export function firstPts (head: Uint8Array): number | null {
  let earliest: number | null = null
  for (let at = head.indexOf(0x47); at >= 0 && at + PACKET <= head.length; at += PACKET) {
    if (head[at] !== 0x47) break
    const unitStart = ((head[at + 1] as number) & 0x40) !== 0
    const control = ((head[at + 3] as number) >> 4) & 0x3
    if (!unitStart || (control & 0x1) === 0) continue
    let p = at + 4
    if ((control & 0x2) !== 0) p += 1 + (head[p] as number)
    if (p + 14 > at + PACKET) continue
    if (head[p] !== 0 || head[p + 1] !== 0 || head[p + 2] !== 1) continue
    const streamId = head[p + 3] as number
    // Audio (0xC0–0xDF), video (0xE0–0xEF) and private stream 1 (AC-3 and the like).
    if (!(streamId === 0xbd || (streamId >= 0xc0 && streamId <= 0xef))) continue
    if (((head[p + 7] as number) & 0x80) === 0) continue
    const b = head.subarray(p + 9, p + 14)
    const pts = ((b[0] as number) & 0x0e) * 2 ** 29 + (b[1] as number) * 2 ** 22 + ((b[2] as number) >> 1) * 2 ** 15 + (b[3] as number) * 2 ** 7 + ((b[4] as number) >> 1)
    if (earliest === null || pts < earliest) earliest = pts
  }
  return earliest
}

/** Kept first PTS values, by segment key: a segment is never written twice, so an entry never goes stale. */
const known = new Map<string, number | null>()
const KEEP = 10_000

/**
 * The first PTS of the segment stored at `key` (a rendition's `segment-00000.ts`), read once per process
 * (a ranged read of its first 64 KiB) and kept. Null when the segment has no PTS or is not there.
 */
export async function firstPtsOf (store: MediaStore, key: string): Promise<number | null> {
  if (known.has(key)) return known.get(key) as number | null
  let pts: number | null
  try {
    const object = await store.get(key, { range: `bytes=0-${HEAD_BYTES - 1}` })
    const chunks: Buffer[] = []
    for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Buffer))
    pts = firstPts(Buffer.concat(chunks))
  } catch (error) {
    if (error instanceof MediaNotFoundError) return null
    throw error
  }
  if (known.size >= KEEP) known.delete(known.keys().next().value as string)
  known.set(key, pts)
  return pts
}
