import { Transform, type TransformCallback } from 'node:stream'
import { MediaSizeMismatchError } from './store-errors.ts'

/**
 * Passes bytes through and fails as soon as a body runs over its declared length, or ends short of it.
 * Without it a short body would leave an S3 request waiting for bytes that never come, and a long one
 * would be cut silently by the HTTP client.
 */
export class LengthGuard extends Transform {
  private seen = 0

  constructor (private readonly expected: number) {
    super()
  }

  override _transform (chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length
    if (this.seen > this.expected) {
      callback(new MediaSizeMismatchError(this.expected, this.seen))
      return
    }
    callback(null, chunk)
  }

  override _flush (callback: TransformCallback): void {
    callback(this.seen === this.expected ? null : new MediaSizeMismatchError(this.expected, this.seen))
  }
}
