import { randomBytes } from 'node:crypto'
import {
  AbortMultipartUploadCommand, DeleteBucketCommand, DeleteObjectsCommand, ListMultipartUploadsCommand, ListObjectsV2Command,
  type S3Client
} from '@aws-sdk/client-s3'
import { parseMediaStoreUrl, type S3StoreLocation } from '../../src/media/store/index.ts'
import { createS3Client } from '../../src/media/store/s3-client.ts'

/** Why the S3 suites are skipped when there is no S3 server to run them against. */
export const S3_SKIP_REASON = 'TEST_S3_URL is not set; .ci/run starts Ceph RGW with scripts/rgw.mjs'

/** False when TEST_S3_URL is set (CI sets it, so there the S3 suites must pass), else the skip reason. */
export function s3Skip (): string | false {
  return process.env.TEST_S3_URL === undefined || process.env.TEST_S3_URL === '' ? S3_SKIP_REASON : false
}

/** TEST_S3_URL (the URL scripts/rgw.mjs prints) with a fresh, unique bucket, so tests never share one. */
export function uniqueBucketUrl (): string {
  const base = process.env.TEST_S3_URL
  if (base === undefined || base === '') throw new Error(S3_SKIP_REASON)
  const url = new URL(base)
  url.pathname = `/t-${Date.now().toString(36)}-${randomBytes(5).toString('hex')}`
  url.search = ''
  return url.href
}

export function s3Location (url: string): S3StoreLocation {
  const location = parseMediaStoreUrl(url, { dataDir: '/nonexistent' })
  if (location.kind !== 's3') throw new Error('not an S3 URL')
  return location
}

/** A raw SDK client on the bucket of `url`, for looking at what the store left behind. */
export function rawClient (url: string): { client: S3Client, bucket: string } {
  const location = s3Location(url)
  return { client: createS3Client(location), bucket: location.bucket }
}

/** Multipart uploads still open in the bucket (a failed write must leave none). */
export async function openUploads (url: string): Promise<string[]> {
  const { client, bucket } = rawClient(url)
  try {
    const out = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }))
    return (out.Uploads ?? []).map((upload) => upload.Key ?? '')
  } finally {
    client.destroy()
  }
}

/** Empties and deletes the bucket of `url` (objects and unfinished multipart uploads); a missing bucket is fine. */
export async function dropBucket (url: string): Promise<void> {
  const { client, bucket } = rawClient(url)
  try {
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1000 }))
      const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key }))
      if (keys.length === 0) break
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }))
    }
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }))
    for (const upload of uploads.Uploads ?? []) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }))
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }))
  } catch (error) {
    if ((error as Error).name !== 'NoSuchBucket') throw error
  } finally {
    client.destroy()
  }
}
