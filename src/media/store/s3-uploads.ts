import {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, PutObjectCommand,
  UploadPartCommand, UploadPartCopyCommand, type CompletedPart, type S3Client
} from '@aws-sdk/client-s3'
import { pipeline, type Readable } from 'node:stream'
import { LengthGuard } from './length-guard.ts'
import type { PutResult } from './media-store.ts'
import { storeError } from './s3-client.ts'
import { MediaStoreUnavailableError } from './store-errors.ts'

/** S3's multipart limits: parts of 5 MiB to 5 GiB (the last may be smaller), at most 10,000 of them. */
export const MIN_PART_SIZE = 5 * 1024 * 1024
export const MAX_PART_SIZE = 5 * 1024 * 1024 * 1024
export const MAX_PARTS = 10_000

/** The bucket and key prefix a store writes to. */
export interface S3Target {
  client: S3Client
  bucket: string
  /** The object key in the bucket for a store key (the URL's prefix prepended). */
  objectKey: (key: string) => string
}

/**
 * One PutObject whose body streams from `body`; the declared length is enforced, and a body that fails
 * aborts the request, so S3 never completes (stores) the object.
 */
export async function putStreamed (target: S3Target, key: string, body: Readable, length: number, contentType: string): Promise<PutResult> {
  const abort = new AbortController()
  let bodyError: unknown
  const guarded = pipeline(body, new LengthGuard(length), (error) => {
    if (error !== undefined && error !== null) {
      bodyError = error
      abort.abort()
    }
  })
  try {
    const out = await target.client.send(new PutObjectCommand({
      Bucket: target.bucket, Key: target.objectKey(key), Body: guarded, ContentLength: length, ContentType: contentType
    }), { abortSignal: abort.signal })
    return { size: length, etag: out.ETag }
  } catch (error) {
    guarded.destroy()
    body.destroy()
    throw bodyError ?? storeError(error, 'PutObject', target.bucket, key)
  }
}

/** A PutObject of bytes already in memory (a small object, or the only part of a short stream). */
export async function putBuffer (target: S3Target, key: string, body: Buffer, contentType: string): Promise<PutResult> {
  try {
    const out = await target.client.send(new PutObjectCommand({
      Bucket: target.bucket, Key: target.objectKey(key), Body: body, ContentLength: body.length, ContentType: contentType
    }))
    return { size: body.length, etag: out.ETag }
  } catch (error) {
    throw storeError(error, 'PutObject', target.bucket, key)
  }
}

/** Queues the upload of part `partNumber`; resolves once there is room for another part in flight. */
type Launch = (partNumber: number, send: (uploadId: string, objectKey: string) => Promise<string | undefined>) => Promise<void>

/**
 * Runs a multipart upload: it is created, `fill` queues the parts through `launch`, and it is completed.
 * Parts go up `concurrency` at a time; any failure aborts the upload so no parts linger in the bucket.
 */
async function multipart (
  target: S3Target, key: string, contentType: string, concurrency: number, fill: (launch: Launch) => Promise<void>
): Promise<string | undefined> {
  const Key = target.objectKey(key)
  let uploadId: string | undefined
  try {
    const created = await target.client.send(new CreateMultipartUploadCommand({ Bucket: target.bucket, Key, ContentType: contentType }))
    uploadId = created.UploadId
    if (uploadId === undefined) throw new MediaStoreUnavailableError(`S3 CreateMultipartUpload on ${target.bucket}/${key} gave no upload id`)
    const id = uploadId
    const parts: CompletedPart[] = []
    const running = new Set<Promise<void>>()
    let failure: unknown
    await fill(async (partNumber, send) => {
      if (failure !== undefined) throw failure
      if (partNumber > MAX_PARTS) throw new MediaStoreUnavailableError(`S3 allows at most ${MAX_PARTS} parts; ${target.bucket}/${key} needs more`)
      const task: Promise<void> = send(id, Key).then(
        (ETag) => { parts.push({ PartNumber: partNumber, ETag }) },
        (error: unknown) => { failure ??= error }
      ).then(() => { running.delete(task) })
      running.add(task)
      while (running.size >= concurrency) await Promise.race(running)
      if (failure !== undefined) throw failure
    })
    await Promise.all(running)
    if (failure !== undefined) throw failure
    parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0))
    const out = await target.client.send(new CompleteMultipartUploadCommand({
      Bucket: target.bucket, Key, UploadId: id, MultipartUpload: { Parts: parts }
    }))
    return out.ETag
  } catch (error) {
    if (uploadId !== undefined) {
      await target.client.send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key, UploadId: uploadId })).catch(() => {})
    }
    throw storeError(error, 'multipart upload', target.bucket, key)
  }
}

/** Cuts buffered chunks into parts of exactly `partSize` bytes (copying only when a part spans chunks). */
class PartCutter {
  private chunks: Buffer[] = []
  private bytes = 0

  constructor (private readonly partSize: number) {}

  get buffered (): number {
    return this.bytes
  }

  add (chunk: Buffer): void {
    this.chunks.push(chunk)
    this.bytes += chunk.length
  }

  /** The next full part, or undefined while less than a part is buffered. */
  take (): Buffer | undefined {
    if (this.bytes < this.partSize) return undefined
    const all = this.chunks.length === 1 ? this.chunks[0] as Buffer : Buffer.concat(this.chunks)
    const rest = all.subarray(this.partSize)
    this.chunks = rest.length > 0 ? [Buffer.from(rest)] : []
    this.bytes = rest.length
    return all.subarray(0, this.partSize)
  }

  /** Whatever is left (the last, short part). */
  drain (): Buffer {
    const all = Buffer.concat(this.chunks)
    this.chunks = []
    this.bytes = 0
    return all
  }
}

/**
 * Stores a stream of unknown length: it is cut into parts of `partSize` bytes, each held in memory only
 * while it is sent (at most `concurrency` + 1 parts at once). A stream shorter than one part becomes a
 * single PutObject.
 */
export async function putInParts (
  target: S3Target, key: string, body: Readable, contentType: string, { partSize, concurrency }: { partSize: number, concurrency: number }
): Promise<PutResult> {
  const cutter = new PartCutter(partSize)
  const chunks = body[Symbol.asyncIterator]()
  try {
    // Read up to one full part before deciding: a short body needs no multipart upload.
    while (cutter.buffered < partSize) {
      const next = await chunks.next()
      if (next.done === true) return await putBuffer(target, key, cutter.drain(), contentType)
      cutter.add(next.value as Buffer)
    }
    let size = 0
    let partNumber = 0
    const etag = await multipart(target, key, contentType, concurrency, async (launch) => {
      const send = async (part: Buffer): Promise<void> => {
        const PartNumber = ++partNumber
        size += part.length
        await launch(PartNumber, async (UploadId, Key) => (await target.client.send(new UploadPartCommand({
          Bucket: target.bucket, Key, UploadId, PartNumber, Body: part, ContentLength: part.length
        }))).ETag)
      }
      for (;;) {
        for (let part = cutter.take(); part !== undefined; part = cutter.take()) await send(part)
        const next = await chunks.next()
        if (next.done === true) break
        cutter.add(next.value as Buffer)
      }
      if (cutter.buffered > 0) await send(cutter.drain())
    })
    return { size, etag }
  } catch (error) {
    body.destroy()
    throw error
  }
}

/**
 * Combines objects of known sizes with UploadPartCopy: the bytes are copied inside the store, none pass
 * through this process. Only valid when every part but the last is at least MIN_PART_SIZE.
 */
export async function copyInParts (
  target: S3Target, sources: ReadonlyArray<{ key: string, size: number }>, key: string, contentType: string, concurrency: number
): Promise<PutResult> {
  const etag = await multipart(target, key, contentType, concurrency, async (launch) => {
    for (const [index, source] of sources.entries()) {
      await launch(index + 1, async (UploadId, Key) => {
        try {
          const out = await target.client.send(new UploadPartCopyCommand({
            Bucket: target.bucket, Key, UploadId, PartNumber: index + 1, CopySource: `${target.bucket}/${target.objectKey(source.key)}`
          }))
          return out.CopyPartResult?.ETag
        } catch (error) {
          throw storeError(error, 'UploadPartCopy', target.bucket, source.key)
        }
      })
    }
  })
  return { size: sources.reduce((sum, source) => sum + source.size, 0), etag }
}
