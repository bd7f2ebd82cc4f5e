// Helpers of the upload tests: an app on each media store (files always, Ceph RGW when TEST_S3_URL is
// set), and chunk PUTs through `app.inject` to the absolute URLs uploading_urls gives.
import { createHash, randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { buildTestApp, type TestApp } from '../../support/app.ts'
import type { Backend } from '../../support/backends.ts'
import { dropBucket, s3Skip, uniqueBucketUrl } from '../../support/rgw.ts'

export const PUBLIC_API_URL = 'https://media.reelhouse.test:9443'

export interface StoreCase {
  name: 'file' | 's3'
  skip: string | false
}

/** The file store always; S3 (Ceph RGW) when TEST_S3_URL is set, else skipped with the reason. */
export function storeCases (): StoreCase[] {
  return [{ name: 'file', skip: false }, { name: 's3', skip: s3Skip() }]
}

/** A test app whose chunk URLs start with PUBLIC_API_URL, on the given database and media store. */
export async function uploadApp (backend: Backend['name'], store: StoreCase['name']): Promise<TestApp> {
  const bucket = store === 's3' ? uniqueBucketUrl() : undefined
  const t = await buildTestApp(backend, { PUBLIC_API_URL, ...(bucket === undefined ? {} : { MEDIA_STORE_URL: bucket }) })
  if (bucket === undefined) return t
  return { ...t, close: async () => { await t.close(); await dropBucket(bucket) } }
}

/** Creates a video asset for `size` bytes in chunks of `chunkSize` (both sent as numeric strings, as form backends do). */
export async function createUpload (t: TestApp, size: number, chunkSize?: number, as = t.admin): Promise<string> {
  const res = await t.signed('POST', '/v2/assets', {
    as,
    body: { asset_type: 'video', name: 'Clip', file_name: 'clip.mp4', file_size: String(size), ...(chunkSize === undefined ? {} : { chunk_size: String(chunkSize) }) }
  })
  if (res.statusCode !== 200) throw new Error(`create answered ${res.statusCode}: ${res.body}`)
  return res.json().embed_code as string
}

export async function chunkUrls (t: TestApp, assetId: string, prefix = '', as = t.admin): Promise<string[]> {
  const res = await t.signed('GET', `/v2/assets/${assetId}/${prefix}uploading_urls`, { as })
  if (res.statusCode !== 200) throw new Error(`uploading_urls answered ${res.statusCode}: ${res.body}`)
  return res.json() as string[]
}

/** PUTs raw bytes to an absolute chunk URL, unsigned, through the app. */
export async function putChunk (t: TestApp, url: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const parsed = new URL(url)
  return await t.app.inject({ method: 'PUT', url: parsed.pathname + parsed.search, payload: body, headers: { 'content-type': 'application/octet-stream', ...headers } })
}

export async function setUploadStatus (t: TestApp, assetId: string, body: object, prefix = '', as = t.admin): Promise<LightMyRequestResponse> {
  return await t.signed('PUT', `/v2/assets/${assetId}/${prefix}upload_status`, { as, body })
}

/** `count` chunks' worth of random bytes; the last chunk shorter when `tail` is given. */
export function fileOf (size: number): Buffer {
  return randomBytes(size)
}

export function sliceOf (file: Buffer, chunkSize: number, index: number): Buffer {
  return file.subarray(index * chunkSize, Math.min(file.length, (index + 1) * chunkSize))
}

export function sha256 (bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Reads a whole object of the app's media store. */
export async function storedBytes (t: TestApp, key: string): Promise<Buffer> {
  const object = await t.ctx.services.mediaStore.get(key)
  const parts: Buffer[] = []
  for await (const part of object.body) parts.push(part as Buffer)
  return Buffer.concat(parts)
}

/** Every key under a prefix of the app's media store. */
export async function storedKeys (t: TestApp, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const object of t.ctx.services.mediaStore.list(prefix)) keys.push(object.key)
  return keys
}
