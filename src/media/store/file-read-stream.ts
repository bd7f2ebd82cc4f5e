import { read } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { Readable, type Writable } from 'node:stream'

/** The first read of a file: a third of a typical 6 s 720p segment, so a reader on a slow link never holds a whole one. */
export const FIRST_READ_BYTES = 256 * 1024
/** Reads grow up to this while the reader keeps up (a segment then takes one or two reads). */
export const MAX_READ_BYTES = 1024 * 1024
/** The read size once the reader is slow. */
export const SLOW_READ_BYTES = 64 * 1024
/** A reader that took the previous read within this is keeping up. */
const KEEPING_UP_MS = 20

/**
 * Bytes `start`–`end` (inclusive) of an open file, read in sizes that follow the reader
 * (docs/media.md, "Reads and memory"). The first read is 256 KiB; while the destination it is piped
 * to takes each read within 20 ms the next is four times larger (up to 1 MiB), else 64 KiB. Nothing is
 * read while the destination still holds bytes it has not passed on (no read-ahead), so a reader on a
 * slow link holds one read at most: 256 KiB, then 64 KiB. Closes the file when it ends or is destroyed.
 */
export class FileRangeStream extends Readable {
  readonly #handle: FileHandle
  #position: number
  readonly #end: number
  #size = FIRST_READ_BYTES
  #reads = 0
  #pushedAt = 0
  #sink: Writable | undefined

  constructor (handle: FileHandle, start: number, end: number) {
    // One byte: a chunk is read only when the buffer is empty.
    super({ highWaterMark: 1 })
    this.#handle = handle
    this.#position = start
    this.#end = end
  }

  override pipe<T extends NodeJS.WritableStream> (destination: T, options?: { end?: boolean }): T {
    if (typeof (destination as unknown as Writable).writableNeedDrain === 'boolean') this.#sink = destination as unknown as Writable
    return super.pipe(destination, options)
  }

  override _read (): void {
    const sink = this.#sink
    if (sink?.writableNeedDrain === true) {
      sink.once('drain', () => { this.#readNext() })
      return
    }
    this.#readNext()
  }

  #readNext (): void {
    if (this.destroyed) return
    const left = this.#end - this.#position + 1
    if (left <= 0) {
      this.push(null)
      return
    }
    if (this.#reads > 0) {
      const keepingUp = performance.now() - this.#pushedAt <= KEEPING_UP_MS
      this.#size = keepingUp ? Math.min(this.#size * 4, MAX_READ_BYTES) : SLOW_READ_BYTES
    }
    this.#reads += 1
    const wanted = Math.min(left, this.#size)
    const buffer = Buffer.allocUnsafe(wanted)
    // The callback form on the descriptor: no promise per read (the handle still owns and closes it).
    read(this.#handle.fd, buffer, 0, wanted, this.#position, (error, bytesRead) => {
      if (error !== null) {
        this.destroy(error)
        return
      }
      if (bytesRead === 0) {
        this.destroy(new Error('the file ended before its known size'))
        return
      }
      this.#position += bytesRead
      this.#pushedAt = performance.now()
      this.push(bytesRead === wanted ? buffer : buffer.subarray(0, bytesRead))
    })
  }

  override _destroy (error: Error | null, callback: (error?: Error | null) => void): void {
    this.#handle.close().then(() => { callback(error) }, (closeError: unknown) => { callback(error ?? closeError as Error) })
  }
}
