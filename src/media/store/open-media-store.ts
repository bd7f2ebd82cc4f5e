import { FileMediaStore } from './file-media-store.ts'
import type { MediaStore } from './media-store.ts'
import type { StoreLogger } from './s3-client.ts'
import type { S3StoreOptions } from './s3-media-store.ts'
import { parseMediaStoreUrl, type ParseOptions } from './store-url.ts'

export interface OpenOptions extends ParseOptions {
  logger?: StoreLogger
  /** Tuning of the S3 store (part size, concurrency, bucket creation); ignored for files. */
  s3?: Omit<S3StoreOptions, 'logger'>
}

/**
 * Opens the store MEDIA_STORE_URL names (docs/media-store.md): unset → files in `<dataDir>/media`,
 * `file:/folder` → files there, an S3 URL → that bucket, created when missing. A bad URL throws
 * MediaStoreUrlError; an S3 store that cannot be reached or refuses the credentials throws
 * MediaStoreUnavailableError. The S3 client is imported only for an S3 URL: files never load it.
 */
export async function openMediaStore (url: string | undefined, options: OpenOptions): Promise<MediaStore> {
  const location = parseMediaStoreUrl(url, options)
  if (location.kind === 'file') return await FileMediaStore.open(location.root)
  const { S3MediaStore } = await import('./s3-media-store.ts')
  return await S3MediaStore.open(location, { ...options.s3, logger: options.logger })
}
