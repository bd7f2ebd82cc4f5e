/**
 * Errors the media store throws on purpose. They are library errors, not HTTP answers: the layer that
 * serves or accepts media maps them (not found → 404, range not satisfiable → 416 with
 * `Content-Range: bytes *\/size`, size mismatch → the upload's bad-chunk answer). Messages never carry
 * credentials.
 */
export type MediaStoreErrorCode =
  | 'media_not_found'
  | 'media_range_not_satisfiable'
  | 'media_range_invalid'
  | 'media_key_invalid'
  | 'media_key_conflict'
  | 'media_size_mismatch'
  | 'media_store_unavailable'

export class MediaStoreError extends Error {
  readonly code: MediaStoreErrorCode

  constructor (code: MediaStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'MediaStoreError'
    this.code = code
  }
}

/** No object under this key (GET, HEAD, a concat source, a download). */
export class MediaNotFoundError extends MediaStoreError {
  constructor (readonly key: string) {
    super('media_not_found', `No media object under key ${JSON.stringify(key)}.`)
    this.name = 'MediaNotFoundError'
  }
}

/** The range starts at or past the end of the object; `size` is what `Content-Range: bytes *\/size` needs. */
export class RangeNotSatisfiableError extends MediaStoreError {
  constructor (readonly key: string, readonly size: number) {
    super('media_range_not_satisfiable', `The requested range lies outside ${JSON.stringify(key)} (${size} bytes).`)
    this.name = 'RangeNotSatisfiableError'
  }
}

/** A range string that is not one `bytes=a-b`, `bytes=a-` or `bytes=-n`. */
export class InvalidRangeError extends MediaStoreError {
  constructor (readonly range: string) {
    super('media_range_invalid', `Unsupported range ${JSON.stringify(range)}: expected one of bytes=a-b, bytes=a-, bytes=-n.`)
    this.name = 'InvalidRangeError'
  }
}

/** A key or prefix that breaks the key rules (docs/media-store.md, "Keys"); nothing was touched. */
export class InvalidMediaKeyError extends MediaStoreError {
  constructor (readonly key: string, reason: string) {
    super('media_key_invalid', `Invalid media key ${JSON.stringify(key)}: ${reason}.`)
    this.name = 'InvalidMediaKeyError'
  }
}

/** The file store cannot hold both `a/b` and `a/b/c`: a key may not be an object and a folder at once. */
export class MediaKeyConflictError extends MediaStoreError {
  constructor (readonly key: string) {
    super('media_key_conflict', `Media key ${JSON.stringify(key)} collides with an existing object or prefix.`)
    this.name = 'MediaKeyConflictError'
  }
}

/** A body with a declared length delivered a different number of bytes; nothing was stored. */
export class MediaSizeMismatchError extends MediaStoreError {
  /** `received` is exact when the body ended short, and a lower bound when it ran over. */
  constructor (readonly expected: number, readonly received: number) {
    super('media_size_mismatch', `Expected ${expected} bytes, received ${received > expected ? 'more' : received}.`)
    this.name = 'MediaSizeMismatchError'
  }
}

/** The store answered with an error of its own, or could not be reached. */
export class MediaStoreUnavailableError extends MediaStoreError {
  constructor (message: string, options?: { cause?: unknown }) {
    super('media_store_unavailable', message, options)
    this.name = 'MediaStoreUnavailableError'
  }
}
