import { createCipheriv, createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import v8 from 'node:v8'
import vm from 'node:vm'

const PIECE = 256 * 1024

/**
 * Deterministic pseudo-random bytes (AES-CTR over zeros), produced piece by piece only as the consumer
 * reads, hashing what it hands out. `onPiece` runs after every 1 MiB (memory sampling).
 */
export class PatternBody extends Readable {
  private produced = 0
  private readonly hash = createHash('sha256')
  private readonly cipher

  constructor (readonly total: number, seed: number, private readonly onPiece?: () => void) {
    super({ highWaterMark: PIECE })
    this.cipher = createCipheriv('aes-128-ctr', Buffer.alloc(16, seed), Buffer.alloc(16, 0))
  }

  override _read (): void {
    if (this.produced >= this.total) {
      this.push(null)
      return
    }
    const piece = this.cipher.update(Buffer.alloc(Math.min(PIECE, this.total - this.produced)))
    this.produced += piece.length
    this.hash.update(piece)
    if (this.produced % (4 * PIECE) === 0) this.onPiece?.()
    this.push(piece)
  }

  /** SHA-256 of everything produced; call once the body was consumed. */
  get sha256 (): string {
    return this.hash.copy().digest('hex')
  }
}

/** The bytes PatternBody(total, seed) produces, in memory (small sizes only). */
export function patternBytes (total: number, seed: number): Buffer {
  return createCipheriv('aes-128-ctr', Buffer.alloc(16, seed), Buffer.alloc(16, 0)).update(Buffer.alloc(total))
}

export function sha256 (bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Hashes a stream as it flows; `onPiece` runs every 1 MiB or so. */
export async function sha256Of (body: Readable, onPiece?: () => void): Promise<{ sha256: string, bytes: number }> {
  const hash = createHash('sha256')
  let bytes = 0
  let sinceSample = 0
  for await (const chunk of body) {
    hash.update(chunk as Buffer)
    bytes += (chunk as Buffer).length
    sinceSample += (chunk as Buffer).length
    if (sinceSample >= 1024 * 1024) {
      sinceSample = 0
      onPiece?.()
    }
  }
  return { sha256: hash.digest('hex'), bytes }
}

export async function readAll (body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Sends `before` pattern bytes, then fails with `error` (a client that disconnects mid-upload). */
export function failingBody (before: number, error = new Error('the client went away')): Readable {
  let sent = 0
  return new Readable({
    read () {
      if (sent >= before) {
        this.destroy(error)
        return
      }
      const piece = Buffer.alloc(Math.min(PIECE, before - sent), 7)
      sent += piece.length
      this.push(piece)
    }
  })
}

/** `first` bytes at once, then the rest only after `release()`: a write caught in the middle. */
export function gatedBody (first: Buffer, rest: Buffer): { body: Readable, release: () => void, halfway: Promise<void> } {
  let release!: () => void
  let reached!: () => void
  const gate = new Promise<void>((resolve) => { release = resolve })
  const halfway = new Promise<void>((resolve) => { reached = resolve })
  async function * pieces (): AsyncGenerator<Buffer> {
    yield first
    reached()
    await gate
    yield rest
  }
  return { body: Readable.from(pieces(), { objectMode: false }), release, halfway }
}

/**
 * Peak growth of live ArrayBuffer memory (where Buffers live) over a baseline, sampled after a forced
 * garbage collection so dead pieces do not count. It tells a streamed body (a few pieces alive at once)
 * from one held whole.
 */
export class MemoryProbe {
  private static gc: () => void = (() => {
    v8.setFlagsFromString('--expose-gc')
    return vm.runInNewContext('gc') as () => void
  })()

  private baseline = 0
  peakGrowth = 0

  start (): void {
    MemoryProbe.gc()
    this.baseline = process.memoryUsage().arrayBuffers
    this.peakGrowth = 0
  }

  readonly sample = (): void => {
    MemoryProbe.gc()
    this.peakGrowth = Math.max(this.peakGrowth, process.memoryUsage().arrayBuffers - this.baseline)
  }
}

export const MiB = 1024 * 1024
