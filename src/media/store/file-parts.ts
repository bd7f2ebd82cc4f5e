import { constants } from 'node:fs'
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Transform, type Readable, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { errorCode } from './file-tree.ts'
import { LengthGuard } from './length-guard.ts'
import type { PartPlace } from './media-store.ts'
import { MediaNotFoundError, MediaSizeMismatchError } from './store-errors.ts'

/**
 * Bytes a file write may buffer before the body is paused: large enough that reading the socket does
 * not wait for each disk write (the writes of several buffered reads go out as one writev).
 */
export const WRITE_BUFFER_BYTES = 1024 * 1024

/**
 * Writes exactly `place.length` bytes of `body` into the file at `path`, from `place.offset`, creating
 * the file (and its folder) when it is the first part; resolves once the bytes are on disk (the stream
 * flushes the file before it closes). Parts of one file may be written in parallel: each writes only its
 * own range. A body of another length throws MediaSizeMismatchError; after any failure the range holds
 * some of the body's bytes.
 */
export async function writePartAt (path: string, place: PartPlace, body: Readable): Promise<void> {
  const handle = await openForPart(path, body)
  try {
    await pipeline(body, new LengthGuard(place.length), handle.createWriteStream({ start: place.offset, flush: true, highWaterMark: WRITE_BUFFER_BYTES }))
  } catch (error) {
    body.destroy()
    throw error
  } finally {
    await handle.close().catch(() => {})
  }
}

/**
 * Writes what `body` brings, at most `maxLength` bytes, into the file at `path` from `offset` (creating
 * the file and its folder); answers the count once the bytes are on disk. A longer body throws
 * MediaSizeMismatchError; after any failure the range holds some of the body's bytes.
 */
export async function writeStreamAt (path: string, offset: number, body: Readable, maxLength: number): Promise<number> {
  const handle = await openForPart(path, body)
  const counter = new ByteCounter(maxLength)
  try {
    await pipeline(body, counter, handle.createWriteStream({ start: offset, flush: true, highWaterMark: WRITE_BUFFER_BYTES }))
    return counter.seen
  } catch (error) {
    body.destroy()
    throw error
  } finally {
    await handle.close().catch(() => {})
  }
}

/**
 * Opens (creating it and its folder) the file parts are written into. When that fails the body is
 * destroyed, as after a failed write: a file stream given as the body (a spooled tus part) would
 * otherwise hold its descriptor until garbage collection.
 */
async function openForPart (path: string, body: Readable): Promise<FileHandle> {
  try {
    await mkdir(dirname(path), { recursive: true })
    return await open(path, constants.O_WRONLY | constants.O_CREAT, 0o666)
  } catch (error) {
    body.destroy()
    throw error
  }
}

/** Passes bytes through, counting them; fails once they run over `limit`. */
class ByteCounter extends Transform {
  seen = 0
  constructor (private readonly limit: number) { super() }
  override _transform (chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length
    callback(this.seen > this.limit ? new MediaSizeMismatchError(this.limit, this.seen) : null, chunk)
  }
}

/**
 * Writes `body` to a new file at `path` (which must not exist), through a LengthGuard when
 * `contentLength` is given; resolves once the bytes are on disk (the stream flushes the file before it
 * closes).
 */
export async function writeNewFile (path: string, body: Readable, contentLength: number | undefined): Promise<void> {
  const handle = await open(path, 'wx')
  try {
    const sink = handle.createWriteStream({ flush: true, highWaterMark: WRITE_BUFFER_BYTES })
    await (contentLength === undefined ? pipeline(body, sink) : pipeline(body, new LengthGuard(contentLength), sink))
  } finally {
    await handle.close().catch(() => {})
  }
}

/**
 * Checks that the file at `path` holds every part of `places` (its size is where the last one ends; each
 * part was flushed by its own write): the caller then renames it into place. A missing file throws
 * MediaNotFoundError.
 */
export async function checkAssembled (path: string, key: string, places: readonly PartPlace[]): Promise<number> {
  const size = places.reduce((end, place) => Math.max(end, place.offset + place.length), 0)
  const info = await stat(path).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') throw new MediaNotFoundError(key)
    throw error
  })
  if (info.size !== size) throw new MediaSizeMismatchError(size, info.size)
  return size
}
