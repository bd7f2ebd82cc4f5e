import {
  AbortMultipartUploadCommand, CreateBucketCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand,
  HeadBucketCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { Readable } from 'node:stream'
import { contentRange, parseContentRange, rangeHeader, resolveRange, toByteRange } from './byte-range.ts'
import { downloadToFile, uploadFile } from './local-files.ts'
import { checkKey, checkPrefix, partKey } from './media-keys.ts'
import {
  DEFAULT_CONTENT_TYPE, type ConcatResult, type ConcatSource, type GetOptions, type ListedObject, type MediaObject,
  type MediaObjectInfo, type MediaStore, type PartPlace, type PresignOptions, type PutOptions, type PutResult
} from './media-store.ts'
import { createS3Client, httpStatusOf, storeError, type StoreLogger } from './s3-client.ts'
import { copyInParts, MAX_PART_SIZE, MAX_PARTS, MIN_PART_SIZE, putBuffer, putInParts, putStreamed, type S3Target } from './s3-uploads.ts'
import { MediaNotFoundError, MediaSizeMismatchError, MediaStoreUnavailableError, RangeNotSatisfiableError } from './store-errors.ts'
import type { S3StoreLocation } from './store-url.ts'
import { LengthGuard } from './length-guard.ts'
import { pipeline } from 'node:stream'

export interface S3StoreOptions {
  /** Part size for streams of unknown length (default 8 MiB; at least 5 MiB). */
  partSize?: number
  /** Largest object sent as one PutObject (default and S3's maximum: 5 GiB); longer ones go in parts. */
  maxSinglePut?: number
  /** Parts uploaded or copied at once (default 4). */
  concurrency?: number
  /** Create the bucket when it does not exist (default true). */
  createBucket?: boolean
  logger?: StoreLogger
}

/** Media in an S3 bucket (AWS, Ceph RGW or another compatible server), optionally under a key prefix. */
export class S3MediaStore implements MediaStore {
  readonly kind = 's3' as const
  readonly description: string
  private readonly client: S3Client
  private readonly target: S3Target
  private readonly partSize: number
  private readonly maxSinglePut: number
  private readonly concurrency: number

  private constructor (private readonly location: S3StoreLocation, options: S3StoreOptions) {
    this.description = `S3 bucket ${location.bucket}${location.prefix === '' ? '' : ` under ${location.prefix}`} at ${location.endpoint}`
    this.client = createS3Client(location, options.logger)
    this.target = { client: this.client, bucket: location.bucket, objectKey: (key) => location.prefix + key }
    this.partSize = Math.min(Math.max(options.partSize ?? 8 * 1024 * 1024, MIN_PART_SIZE), MAX_PART_SIZE)
    this.maxSinglePut = Math.min(options.maxSinglePut ?? MAX_PART_SIZE, MAX_PART_SIZE)
    this.concurrency = Math.max(1, options.concurrency ?? 4)
  }

  /** Connects to the bucket, creating it unless `createBucket` is false; fails when it is unreachable or refuses us. */
  static async open (location: S3StoreLocation, options: S3StoreOptions = {}): Promise<S3MediaStore> {
    const store = new S3MediaStore(location, options)
    try {
      await store.ensureBucket(options.createBucket ?? true)
    } catch (error) {
      await store.close()
      throw error
    }
    return store
  }

  async put (key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<PutResult> {
    checkKey(key)
    const contentType = options.contentType ?? DEFAULT_CONTENT_TYPE
    const length = options.contentLength
    if (Buffer.isBuffer(body)) {
      if (length !== undefined && length !== body.length) throw new MediaSizeMismatchError(length, body.length)
      if (body.length <= this.maxSinglePut) return await putBuffer(this.target, key, body, contentType)
      return await putInParts(this.target, key, Readable.from([body]), contentType, this.partsFor(body.length))
    }
    if (length !== undefined && length <= this.maxSinglePut) return await putStreamed(this.target, key, body, length, contentType)
    const source = length === undefined ? body : pipeline(body, new LengthGuard(length), () => {})
    return await putInParts(this.target, key, source, contentType, this.partsFor(length))
  }

  async get (key: string, options: GetOptions = {}): Promise<MediaObject> {
    checkKey(key)
    const wanted = options.range === undefined ? undefined : toByteRange(options.range)
    if (wanted !== undefined && 'suffix' in wanted && wanted.suffix === 0) throw new RangeNotSatisfiableError(key, (await this.head(key)).size)
    let out
    try {
      out = await this.client.send(new GetObjectCommand({
        Bucket: this.location.bucket, Key: this.target.objectKey(key), Range: wanted === undefined ? undefined : rangeHeader(wanted)
      }))
    } catch (error) {
      if (httpStatusOf(error) === 416) throw new RangeNotSatisfiableError(key, (await this.head(key)).size)
      throw storeError(error, 'GetObject', this.location.bucket, key)
    }
    const body = out.Body as Readable
    const answered = parseContentRange(out.ContentRange)
    const size = answered?.size ?? out.ContentLength ?? 0
    // A server that ignores Range sends the whole object: then say so rather than claim the range.
    const range = wanted === undefined ? undefined : answered?.range ?? resolveRange({ start: 0 }, size) ?? undefined
    return {
      key,
      body,
      size,
      contentLength: out.ContentLength ?? size,
      contentType: out.ContentType ?? DEFAULT_CONTENT_TYPE,
      etag: out.ETag,
      lastModified: out.LastModified,
      range,
      contentRange: range === undefined ? undefined : contentRange(range, size)
    }
  }

  async presignedGet (key: string, options: PresignOptions): Promise<string> {
    checkKey(key)
    return await getSignedUrl(this.client, new GetObjectCommand({
      Bucket: this.location.bucket,
      Key: this.target.objectKey(key),
      ResponseContentType: options.contentType,
      ResponseCacheControl: options.cacheControl,
      ResponseContentDisposition: options.contentDisposition
    }), { expiresIn: options.expiresSeconds })
  }

  async head (key: string): Promise<MediaObjectInfo> {
    checkKey(key)
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.target.objectKey(key) }))
      return { key, size: out.ContentLength ?? 0, contentType: out.ContentType ?? DEFAULT_CONTENT_TYPE, etag: out.ETag, lastModified: out.LastModified }
    } catch (error) {
      throw storeError(error, 'HeadObject', this.location.bucket, key)
    }
  }

  async exists (key: string): Promise<boolean> {
    try {
      await this.head(key)
      return true
    } catch (error) {
      if (error instanceof MediaNotFoundError) return false
      throw error
    }
  }

  async delete (key: string): Promise<void> {
    checkKey(key)
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.target.objectKey(key) }))
    } catch (error) {
      throw storeError(error, 'DeleteObject', this.location.bucket, key)
    }
  }

  /** Deletes page by page (1,000 keys per request), then aborts unfinished multipart uploads under the prefix. */
  async deletePrefix (prefix: string): Promise<number> {
    checkPrefix(prefix, { allowEmpty: false })
    const { bucket } = this.location
    const Prefix = this.target.objectKey(prefix)
    let deleted = 0
    try {
      for (;;) {
        const page = await this.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix, MaxKeys: 1000 }))
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [{ Key: object.Key }]))
        if (keys.length === 0) break
        const out = await this.client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }))
        const failed = out.Errors ?? []
        if (failed.length > 0) throw new MediaStoreUnavailableError(`S3 DeleteObjects on bucket ${bucket} refused ${failed.length} keys: ${failed[0]?.Code ?? 'unknown'}`)
        deleted += keys.length
      }
      const uploads = await this.client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix }))
      for (const upload of uploads.Uploads ?? []) {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }))
      }
    } catch (error) {
      throw storeError(error, 'delete by prefix', bucket)
    }
    return deleted
  }

  list (prefix: string): AsyncIterable<ListedObject> {
    checkPrefix(prefix, { allowEmpty: true })
    const { client, location, target } = this
    return (async function * () {
      let ContinuationToken: string | undefined
      do {
        let page
        try {
          page = await client.send(new ListObjectsV2Command({ Bucket: location.bucket, Prefix: target.objectKey(prefix), ContinuationToken }))
        } catch (error) {
          throw storeError(error, 'ListObjectsV2', location.bucket)
        }
        for (const object of page.Contents ?? []) {
          if (object.Key === undefined) continue
          yield { key: object.Key.slice(location.prefix.length), size: object.Size ?? 0, lastModified: object.LastModified }
        }
        ContinuationToken = page.IsTruncated === true ? page.NextContinuationToken : undefined
      } while (ContinuationToken !== undefined)
    })()
  }

  async downloadTo (key: string, filePath: string): Promise<number> {
    return await downloadToFile(this, key, filePath)
  }

  async uploadFrom (filePath: string, key: string, contentType: string): Promise<PutResult> {
    return await uploadFile(this, filePath, key, contentType)
  }

  /**
   * Copies the parts inside the store (multipart upload with UploadPartCopy) when S3's part rules allow
   * it — every part but the last at least 5 MiB — else streams them through this process into one upload.
   */
  async concat (sources: readonly ConcatSource[], targetKey: string, options: { contentType?: string } = {}): Promise<ConcatResult> {
    checkKey(targetKey)
    for (const source of sources) checkKey(typeof source === 'string' ? source : source.key)
    if (sources.length === 0) throw new RangeError('concat needs at least one source key')
    const contentType = options.contentType ?? DEFAULT_CONTENT_TYPE
    const sized = await this.sizesOf(sources)
    if (partCopyAllowed(sized)) {
      await copyInParts(this.target, sized, targetKey, contentType, this.concurrency)
      return { size: (await this.head(targetKey)).size, strategy: 'part-copy' }
    }
    const total = sized.reduce((sum, source) => sum + source.size, 0)
    const body = Readable.from(this.readInOrder(sized.map((source) => source.key)), { objectMode: false })
    const result = total <= this.maxSinglePut
      ? await putStreamed(this.target, targetKey, body, total, contentType)
      : await putInParts(this.target, targetKey, pipeline(body, new LengthGuard(total), () => {}), contentType, this.partsFor(total))
    return { size: result.size, strategy: 'stream' }
  }

  /** Each part is an object of its own (PutObject is durable once answered), combined by `concat`. */
  async putPart (prefix: string, place: PartPlace, body: Readable): Promise<void> {
    await this.put(partKey(prefix, place.index), body, { contentLength: place.length })
  }

  async assemble (prefix: string, places: readonly PartPlace[], targetKey: string, options: { contentType?: string } = {}): Promise<ConcatResult> {
    const result = await this.concat(places.map((place) => ({ key: partKey(prefix, place.index), size: place.length })), targetKey, options)
    await this.discardParts(prefix)
    return result
  }

  async discardParts (prefix: string): Promise<void> {
    await this.deletePrefix(prefix)
  }

  async close (): Promise<void> {
    this.client.destroy()
  }

  private async ensureBucket (create: boolean): Promise<void> {
    const { bucket, region } = this.location
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: bucket }))
      return
    } catch (error) {
      if (httpStatusOf(error) !== 404 || !create) throw storeError(error, 'HeadBucket', bucket)
    }
    try {
      await this.client.send(new CreateBucketCommand({
        Bucket: bucket,
        ...(region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: region as never } })
      }))
    } catch (error) {
      if ((error as Error).name !== 'BucketAlreadyOwnedByYou') throw storeError(error, 'CreateBucket', bucket)
    }
  }

  /** Sizes for sources given as bare keys: HEAD requests, several at a time. */
  private async sizesOf (sources: readonly ConcatSource[]): Promise<Array<{ key: string, size: number }>> {
    const sized = sources.map((source) => (typeof source === 'string' ? { key: source, size: -1 } : { ...source }))
    let next = 0
    const worker = async (): Promise<void> => {
      for (let index = next++; index < sized.length; index = next++) {
        const source = sized[index] as { key: string, size: number }
        if (source.size < 0) source.size = (await this.head(source.key)).size
      }
    }
    await Promise.all(Array.from({ length: Math.min(8, sized.length) }, worker))
    return sized
  }

  /** The bytes of several objects, one after the other, each fetched only when the previous one is done. */
  private async * readInOrder (keys: readonly string[]): AsyncGenerator<Buffer> {
    for (const key of keys) {
      const { body } = await this.get(key)
      try {
        for await (const chunk of body) yield chunk as Buffer
      } finally {
        body.destroy()
      }
    }
  }

  /** Part size for a stream of `length` bytes: big enough that it fits in S3's 10,000 parts. */
  private partsFor (length: number | undefined): { partSize: number, concurrency: number } {
    const needed = length === undefined ? 0 : Math.ceil(length / MAX_PARTS)
    return { partSize: Math.max(this.partSize, needed), concurrency: Math.min(this.concurrency, 2) }
  }
}

/** S3's rules for a multipart upload made of whole objects. */
function partCopyAllowed (sources: ReadonlyArray<{ size: number }>): boolean {
  if (sources.length > MAX_PARTS) return false
  return sources.every((source, index) => {
    const last = index === sources.length - 1
    return source.size <= MAX_PART_SIZE && (last ? source.size > 0 : source.size >= MIN_PART_SIZE)
  })
}
