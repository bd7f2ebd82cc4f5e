import type { MediaStore } from '../store/index.ts'
import { MediaNotFoundError } from '../store/index.ts'

const PACKET = 188
/** How far into a segment the first PES of every stream is looked for (a muxer may hold audio back past a large key frame). */
const MAX_SCAN_BYTES = 8 * 1024 * 1024

/**
 * Reads MPEG-TS packets in order and keeps the PTS of the first PES packet of each elementary stream the
 * programme map lists. `done` once every listed stream has given one.
 */
class FirstPtsScanner {
  private pmtPid: number | null = null
  private streams: Set<number> | null = null
  private readonly found = new Map<number, number>()

  get done (): boolean {
    return this.streams !== null && this.streams.size > 0 && this.found.size >= this.streams.size
  }

  /** The earliest of the first PTS of the streams seen: where a player's timeline starts. */
  get earliest (): number | null {
    return this.found.size === 0 ? null : Math.min(...this.found.values())
  }

  packet (p: Uint8Array): void {
    const pid = (((p[1] as number) & 0x1f) << 8) | (p[2] as number)
    const unitStart = ((p[1] as number) & 0x40) !== 0
    const control = ((p[3] as number) >> 4) & 0x3
    if (!unitStart || (control & 0x1) === 0) return
    let at = 4
    if ((control & 0x2) !== 0) at += 1 + (p[4] as number)
    if (at >= PACKET) return
    if (pid === 0 && this.pmtPid === null) {
      // PAT: the first programme's map PID.
      const table = at + 1 + (p[at] as number)
      if (table + 12 <= PACKET) this.pmtPid = (((p[table + 10] as number) & 0x1f) << 8) | (p[table + 11] as number)
    } else if (pid === this.pmtPid && this.streams === null) {
      this.streams = programmeStreams(p, at + 1 + (p[at] as number))
    } else if (this.streams?.has(pid) === true && !this.found.has(pid)) {
      const pts = pesPts(p, at)
      if (pts !== null) this.found.set(pid, pts)
    }
  }
}

/** The elementary stream PIDs of a PMT section starting at `table`. */
function programmeStreams (p: Uint8Array, table: number): Set<number> {
  const streams = new Set<number>()
  if (table + 12 > PACKET) return streams
  const sectionEnd = Math.min(PACKET, table + 3 + ((((p[table + 1] as number) & 0x0f) << 8) | (p[table + 2] as number)) - 4)
  let at = table + 12 + ((((p[table + 10] as number) & 0x0f) << 8) | (p[table + 11] as number))
  while (at + 5 <= sectionEnd) {
    streams.add((((p[at + 1] as number) & 0x1f) << 8) | (p[at + 2] as number))
    at += 5 + ((((p[at + 3] as number) & 0x0f) << 8) | (p[at + 4] as number))
  }
  return streams
}

/** The PTS of a PES packet header at `at`, or null. */
function pesPts (p: Uint8Array, at: number): number | null {
  if (at + 14 > PACKET || p[at] !== 0 || p[at + 1] !== 0 || p[at + 2] !== 1) return null
  if (((p[at + 7] as number) & 0x80) === 0) return null
  const b = p.subarray(at + 9, at + 14)
  return ((b[0] as number) & 0x0e) * 2 ** 29 + (b[1] as number) * 2 ** 22 + ((b[2] as number) >> 1) * 2 ** 15 + (b[3] as number) * 2 ** 7 + ((b[4] as number) >> 1)
}

/**
 * The earliest first PTS (90 kHz) of the streams of an MPEG-TS segment read from its start, audio and
 * video alike: the instant a player's timeline starts from (hls.js takes the earliest of the first audio
 * and video samples, as ffprobe's `start_time` does). Null when no stream's PES carries a PTS.
 */
export async function firstPts (chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<number | null> {
  const scanner = new FirstPtsScanner()
  let rest = Buffer.alloc(0)
  let read = 0
  for await (const chunk of chunks) {
    read += chunk.length
    let data = rest.length === 0 ? Buffer.from(chunk) : Buffer.concat([rest, chunk])
    let at = 0
    while (at + PACKET <= data.length) {
      if (data[at] !== 0x47) {
        // Out of step: find the next sync byte.
        const next = data.indexOf(0x47, at + 1)
        if (next < 0) { at = data.length; break }
        at = next
        continue
      }
      scanner.packet(data.subarray(at, at + PACKET))
      at += PACKET
      if (scanner.done) return scanner.earliest
    }
    data = data.subarray(at)
    rest = Buffer.from(data)
    if (read >= MAX_SCAN_BYTES) break
  }
  return scanner.earliest
}

/** Kept first PTS values, by segment key: a segment is never written twice, so an entry never goes stale. */
const known = new Map<string, number | null>()
const KEEP = 10_000

/**
 * The first PTS of the segment stored at `key` (a rendition's `segment-00000.ts`), read once per process
 * (from its start until every stream has shown its first PTS: some hundreds of KiB) and kept. Null when
 * the segment has no PTS or is not there.
 */
export async function firstPtsOf (store: MediaStore, key: string): Promise<number | null> {
  if (known.has(key)) return known.get(key) as number | null
  let pts: number | null
  try {
    const object = await store.get(key)
    try {
      pts = await firstPts(object.body as AsyncIterable<Uint8Array>)
    } finally {
      object.body.destroy()
    }
  } catch (error) {
    if (error instanceof MediaNotFoundError) return null
    throw error
  }
  if (known.size >= KEEP) known.delete(known.keys().next().value as string)
  known.set(key, pts)
  return pts
}
