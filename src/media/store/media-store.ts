import type { Readable } from 'node:stream'
import type { ByteRange, ResolvedRange } from './byte-range.ts'

export interface PutOptions {
  /** The exact byte count of the body; when given, any other count fails the put and stores nothing. */
  contentLength?: number
  /** Stored with the object and returned by get/head; `application/octet-stream` when absent. */
  contentType?: string
}

export interface PutResult {
  size: number
  etag: string | undefined
}

/** What HEAD tells about an object. */
export interface MediaObjectInfo {
  key: string
  /** Size of the whole object in bytes. */
  size: number
  contentType: string
  /** Opaque validator that changes whenever the object is written (an S3 ETag, or inode/size/mtime for files). */
  etag: string | undefined
  lastModified: Date | undefined
}

/** An object being read. Always consume or destroy `body`: it holds a file descriptor or a connection. */
export interface MediaObject extends MediaObjectInfo {
  body: Readable
  /** Bytes in `body`: the whole size, or the length of the range. */
  contentLength: number
  /** Set when a range was asked for: the bytes actually sent (inclusive). */
  range: ResolvedRange | undefined
  /** `bytes a-b/size` when a range was asked for: ready for the `Content-Range` header. */
  contentRange: string | undefined
}

export interface GetOptions {
  /** A ByteRange or one `bytes=…` range string; see parseRangeHeader for reading a request header. */
  range?: ByteRange | string
  /**
   * What the caller already knows of this object, described before and kept because its key is never
   * written twice (a segment): the file store then opens it without describing it again.
   */
  known?: MediaObjectInfo
  /** The type the caller will send whatever is stored (a segment, a playlist): the file store then does not look it up. */
  contentType?: string
}

/** A pre-signed GET of one object (S3 stores only): a URL anyone may fetch until it expires. */
export interface PresignOptions {
  expiresSeconds: number
  /** Headers the store answers the URL with, in place of the object's own. */
  contentType?: string
  cacheControl?: string
  contentDisposition?: string
}

/** One entry of a listing. */
export interface ListedObject {
  key: string
  size: number
  lastModified: Date | undefined
}

/** A concat source: a key, or a key with its size when the caller knows it (saves a HEAD per part on S3). */
export type ConcatSource = string | { key: string, size: number }

/**
 * How the parts were combined: `append` (file store, streamed), `in-place` (file store: the parts were
 * written at their offsets of one file, which is moved into place), `part-copy` (S3 multipart upload
 * whose parts are copied inside the store), `stream` (S3, the parts are read and written back in one stream).
 */
export type ConcatStrategy = 'append' | 'in-place' | 'part-copy' | 'stream'

/** One part of an object assembled from parts: its number, and where its bytes go in the whole. */
export interface PartPlace {
  index: number
  /** Offset of the part's first byte in the assembled object. */
  offset: number
  /** The part's exact byte count. */
  length: number
}

export interface ConcatResult {
  size: number
  strategy: ConcatStrategy
}

/**
 * Where uploaded and processed media lives: files under a root folder, or an S3-compatible bucket.
 * Every write is atomic — a reader sees the old object or the complete new one, never a partial one —
 * and a write whose body fails stores nothing. Bodies stream: no method holds a whole object in memory.
 * Keys follow the rules in media-keys.ts; a bad key throws InvalidMediaKeyError before anything is touched.
 */
export interface MediaStore {
  readonly kind: 'file' | 's3'
  /** For logs: where the media lives, without credentials. */
  readonly description: string

  /** Stores `body` under `key`, replacing any object there once the body is complete. */
  put: (key: string, body: Readable | Buffer, options?: PutOptions) => Promise<PutResult>
  /** Opens an object or a range of it; MediaNotFoundError, RangeNotSatisfiableError, InvalidRangeError. */
  get: (key: string, options?: GetOptions) => Promise<MediaObject>
  /**
   * S3 only: a URL that GETs the object directly from the bucket until it expires, without asking whether
   * the object exists (the caller knows it does). Ranges work on it as on any GET.
   */
  presignedGet?: (key: string, options: PresignOptions) => Promise<string>
  /** Size, type and validators of an object; MediaNotFoundError when there is none. */
  head: (key: string) => Promise<MediaObjectInfo>
  exists: (key: string) => Promise<boolean>
  /** Removes one object; removing a missing one is not an error. */
  delete: (key: string) => Promise<void>
  /** Removes every object whose key starts with `prefix` (non-empty, ending in `/`); answers how many. */
  deletePrefix: (prefix: string) => Promise<number>
  /** Objects under `prefix` ('' or ending in `/`), in key order. */
  list: (prefix: string) => AsyncIterable<ListedObject>
  /** Writes an object to a local file (atomically: a temporary file renamed into place); answers the size. */
  downloadTo: (key: string, filePath: string) => Promise<number>
  /** Stores a local file under `key`; the caller does not write the file again (a store may link it). */
  uploadFrom: (filePath: string, key: string, contentType: string) => Promise<PutResult>
  /** Stores the concatenation of `sources`, in order, under `targetKey`; a missing source stores nothing. */
  concat: (sources: readonly ConcatSource[], targetKey: string, options?: { contentType?: string }) => Promise<ConcatResult>
  /**
   * Stores one part of an object being assembled from parts under `prefix` (an upload's folder):
   * exactly `place.length` bytes, durably once the promise resolves. A body of another length fails
   * with MediaSizeMismatchError, and so does any failed body: the part must then be put again before
   * `assemble`. Parts may arrive in any order and in parallel; putting a part again replaces it.
   */
  putPart: (prefix: string, place: PartPlace, body: Readable) => Promise<void>
  /**
   * File store only (S3 parts need their length before they are sent): writes whatever `body` brings,
   * up to `maxLength` bytes, at `offset` of the parts under `prefix` — where `putPart` writes — and
   * answers how many bytes it wrote, on disk once the promise resolves. A body that ends early leaves
   * the bytes it brought; one longer than `maxLength` fails with MediaSizeMismatchError, and a failed
   * body leaves the range to be written again. For a body whose length is known only at its end.
   */
  streamPartAt?: (prefix: string, offset: number, body: Readable, maxLength: number) => Promise<number>
  /**
   * Makes the parts put under `prefix` one object under `targetKey` (every part of `places` must have
   * been put completely; a missing one stores nothing and throws MediaNotFoundError), then drops them.
   */
  assemble: (prefix: string, places: readonly PartPlace[], targetKey: string, options?: { contentType?: string }) => Promise<ConcatResult>
  /** Drops the parts put under `prefix` (an abandoned upload); dropping none is not an error. */
  discardParts: (prefix: string) => Promise<void>
  close: () => Promise<void>
}

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream'
