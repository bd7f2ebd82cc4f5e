import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import type { EventBatch, EventName, EventRow } from '../model.ts'
import { isProcessAlive } from '../../lib/process-alive.ts'

/**
 * An append-only journal of accepted batches, so that a 204 survives `kill -9` (docs/analytics.md).
 *
 * Each record is one line, `<crc32 hex> <json>\n`, made durable with fdatasync before `append`
 * resolves. Concurrent appends share one write and one fdatasync (group commit). A torn last line —
 * a crash mid-write, never acknowledged — fails its checksum and is skipped on reading.
 *
 * Segments (`segment-<n>.log`) are never appended to after a restart or a failed write; a segment is
 * deleted once the store has applied every batch in it. The store, not the spool, records what is
 * applied (its `analytics_batches` table), so replay after a crash at any point is idempotent.
 */

/** The viewer-experience fields trail the tuple, and only on rows that carry them (older records end at `domain`). */
type RowTuple = [string, string, string, string, string, EventName, number, number | null, number | null, string, string, string, string, string, ...Array<number | string | boolean | null>]

const toTuple = (r: EventRow): RowTuple => {
  const tuple: RowTuple = [r.accountId, r.assetId, r.playerId, r.sessionId, r.viewerId, r.name, r.time, r.percent, r.value, r.country, r.deviceType, r.os, r.browser, r.domain]
  if (r.value2 != null || r.name === 'error') tuple.push(r.value2 ?? null, r.code ?? null, r.message ?? null, r.fatal ?? false)
  return tuple
}
const fromTuple = (t: RowTuple): EventRow => {
  const row: EventRow = {
    accountId: t[0], assetId: t[1], playerId: t[2], sessionId: t[3], viewerId: t[4], name: t[5], time: t[6],
    percent: t[7], value: t[8], country: t[9], deviceType: t[10], os: t[11], browser: t[12], domain: t[13]
  }
  if (t.length > 14) Object.assign(row, { value2: t[14], code: t[15], message: t[16], fatal: t[17] === true })
  return row
}

function encode (batch: EventBatch): Buffer {
  const json = Buffer.from(JSON.stringify({ id: batch.id, rows: batch.rows.map(toTuple) }))
  return Buffer.concat([Buffer.from(crc32(json).toString(16).padStart(8, '0') + ' '), json, Buffer.from('\n')])
}

/** The records of one segment's text; damaged lines (a torn tail) are counted, not returned. */
function decode (text: Buffer): { batches: EventBatch[], damaged: number } {
  const batches: EventBatch[] = []
  let damaged = 0
  let start = 0
  while (start < text.length) {
    const end = text.indexOf(10, start)
    const line = text.subarray(start, end === -1 ? text.length : end)
    start = end === -1 ? text.length : end + 1
    const json = line.subarray(9)
    if (end === -1 || line[8] !== 32 || crc32(json).toString(16).padStart(8, '0') !== line.subarray(0, 8).toString()) {
      damaged++
      continue
    }
    const record = JSON.parse(json.toString()) as { id: string, rows: RowTuple[] }
    batches.push({ id: record.id, rows: record.rows.map(fromTuple) })
  }
  return { batches, damaged }
}

interface Segment { seq: number, path: string, unapplied: number, size: number }
interface Pending { line: Buffer, id: string, resolve: () => void, reject: (error: unknown) => void }

export interface SpoolOptions {
  /** A segment past this size is closed and a new one started (default 16 MiB). */
  maxSegmentBytes?: number
}

export class Spool {
  private readonly segments = new Map<number, Segment>()
  private readonly segmentOf = new Map<string, number>()
  private current: { segment: Segment, handle: FileHandle } | undefined
  private nextSeq: number
  private pending: Pending[] = []
  private draining: Promise<void> | undefined
  private broken = false

  private constructor (private readonly dir: string, private readonly maxSegmentBytes: number, nextSeq: number) {
    this.nextSeq = nextSeq
  }

  /** Opens (and locks) the spool; returns it with every intact batch it holds, oldest first. */
  static open (dir: string, options: SpoolOptions = {}): { spool: Spool, batches: EventBatch[], damaged: number } {
    mkdirSync(dir, { recursive: true })
    lock(dir)
    const seqs = readdirSync(dir).map((name) => /^segment-(\d+)\.log$/.exec(name)).filter((m) => m !== null).map((m) => Number(m[1])).sort((a, b) => a - b)
    const spool = new Spool(dir, options.maxSegmentBytes ?? 16 * 1024 * 1024, (seqs.at(-1) ?? 0) + 1)
    const batches: EventBatch[] = []
    let damaged = 0
    for (const seq of seqs) {
      const segment = spool.segment(seq)
      const found = decode(readFileSync(segment.path))
      damaged += found.damaged
      for (const batch of found.batches) spool.track(batch.id, segment)
      batches.push(...found.batches)
      spool.dropIfApplied(segment)
    }
    return { spool, batches, damaged }
  }

  /** Resolves once the batch is on disk (fdatasync); rejects if it could not be written. */
  async append (batch: EventBatch): Promise<void> {
    const line = encode(batch)
    await new Promise<void>((resolve, reject) => {
      this.pending.push({ line, id: batch.id, resolve, reject })
      this.draining ??= this.drain().finally(() => { this.draining = undefined })
    })
  }

  /** The store has applied these batches: segments with nothing left to apply are deleted. */
  markApplied (ids: Iterable<string>): void {
    for (const id of ids) {
      const seq = this.segmentOf.get(id)
      if (seq === undefined) continue
      this.segmentOf.delete(id)
      const segment = this.segments.get(seq)
      if (segment === undefined) continue
      segment.unapplied--
      if (segment !== this.current?.segment) this.dropIfApplied(segment)
    }
  }

  /** Waits for pending appends, closes the open segment and removes every fully applied one. */
  async close (): Promise<void> {
    while (this.draining !== undefined) await this.draining
    if (this.current !== undefined) {
      await this.current.handle.close()
      const segment = this.current.segment
      this.current = undefined
      this.dropIfApplied(segment)
    }
    unlock(this.dir)
  }

  private segment (seq: number): Segment {
    const segment = { seq, path: join(this.dir, `segment-${String(seq).padStart(10, '0')}.log`), unapplied: 0, size: 0 }
    this.segments.set(seq, segment)
    return segment
  }

  private track (id: string, segment: Segment): void {
    this.segmentOf.set(id, segment.seq)
    segment.unapplied++
  }

  private dropIfApplied (segment: Segment): void {
    if (segment.unapplied > 0) return
    unlinkSync(segment.path)
    this.segments.delete(segment.seq)
  }

  private async drain (): Promise<void> {
    while (this.pending.length > 0) {
      const group = this.pending.splice(0)
      try {
        const target = await this.writable()
        const buffer = Buffer.concat(group.map((p) => p.line))
        try {
          for (let written = 0; written < buffer.length;) written += (await target.handle.write(buffer, written)).bytesWritten
          await target.handle.datasync()
        } catch (error) {
          this.broken = true // never append after a partial write: the next line would be glued to it
          throw error
        }
        target.segment.size += buffer.length
        for (const p of group) this.track(p.id, target.segment)
        for (const p of group) p.resolve()
      } catch (error) {
        for (const p of group) p.reject(error)
      }
    }
  }

  /** The segment to append to, starting a new one when the current is full, applied or broken. */
  private async writable (): Promise<{ segment: Segment, handle: FileHandle }> {
    const current = this.current
    if (current !== undefined && !this.broken && current.segment.size < this.maxSegmentBytes && !(current.segment.unapplied === 0 && current.segment.size > 0)) return current
    if (current !== undefined) {
      this.current = undefined
      await current.handle.close().catch(() => {})
      this.dropIfApplied(current.segment)
    }
    const segment = this.segment(this.nextSeq++)
    const handle = await open(segment.path, 'a')
    // The new file's directory entry must be durable too, or the whole segment could vanish.
    const dirHandle = await open(this.dir, 'r')
    try { await dirHandle.sync() } finally { await dirHandle.close() }
    this.broken = false
    this.current = { segment, handle }
    return this.current
  }
}

const heldHere = new Set<string>()

/**
 * One process per spool directory: a pid lock file, taken over when that process is gone. A lock
 * with our own pid that this process did not take is a previous incarnation's (pid 1 in a container).
 */
function lock (dir: string): void {
  const file = join(dir, 'LOCK')
  if (heldHere.has(file)) throw new Error(`the analytics spool ${dir} is already open in this process`)
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const pid = Number(readFileSync(file, 'utf8'))
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid)) {
      throw new Error(`the analytics spool ${dir} is in use by process ${pid}`)
    }
    writeFileSync(file, String(process.pid))
  }
  heldHere.add(file)
}

function unlock (dir: string): void {
  const file = join(dir, 'LOCK')
  heldHere.delete(file)
  unlinkSync(file)
}
