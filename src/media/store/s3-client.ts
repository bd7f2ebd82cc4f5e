import { S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import type { S3StoreLocation } from './store-url.ts'
import { MediaNotFoundError, MediaStoreError, MediaStoreUnavailableError } from './store-errors.ts'

/** The SDK's log calls: pino's methods fit. */
export interface StoreLogger {
  debug: (...content: unknown[]) => void
}

const SILENT: StoreLogger = { debug: () => {} }

/**
 * The SDK client for a location, with the settings RGW and other S3-compatible servers need
 * (docs/media-store.md, "SDK settings"): path-style addressing, and checksums only where an operation
 * requires one — with the SDK's default, a streamed PutObject fails with MissingContentLength on RGW.
 */
export function createS3Client (location: S3StoreLocation, logger: StoreLogger = SILENT): S3Client {
  // Every SDK message goes to debug: "An error was encountered in a non-retryable streaming request"
  // is logged for each aborted upload, which is routine when clients cancel.
  const debug = (...content: unknown[]): void => { logger.debug(...content) }
  return new S3Client({
    endpoint: location.endpoint,
    region: location.region,
    forcePathStyle: true,
    credentials: {
      accessKeyId: location.accessKeyId,
      secretAccessKey: location.secretAccessKey,
      ...(location.sessionToken === undefined ? {} : { sessionToken: location.sessionToken })
    },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // requestTimeout is the idle time of a socket, not a cap on a whole (long, streamed) transfer.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
    logger: { debug, info: debug, warn: debug, error: debug }
  })
}

export function httpStatusOf (error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode
}

/**
 * Turns an SDK error into a store error: 404 on an object → MediaNotFoundError; anything else →
 * MediaStoreUnavailableError naming the operation, the S3 error code and status (never credentials).
 * Store errors pass through unchanged.
 */
export function storeError (error: unknown, operation: string, bucket: string, key?: string): Error {
  if (error instanceof MediaStoreError) return error
  const status = httpStatusOf(error)
  if (status === 404 && key !== undefined && (error as Error).name !== 'NoSuchBucket') return new MediaNotFoundError(key)
  const where = key === undefined ? `bucket ${bucket}` : `${bucket}/${key}`
  if (error instanceof S3ServiceException) {
    return new MediaStoreUnavailableError(`S3 ${operation} on ${where} failed: ${error.name}${status === undefined ? '' : ` (HTTP ${status})`}`, { cause: error })
  }
  const reason = (error as Error | undefined)?.message ?? String(error)
  return new MediaStoreUnavailableError(`S3 ${operation} on ${where} failed: ${reason}`, { cause: error })
}
