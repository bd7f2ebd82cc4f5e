import { validationError } from '../../errors/api-error.ts'

/** How many chunks an upload of `fileSize` bytes (at least 1) in chunks of `chunkSize` has. */
export function chunkCount (fileSize: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(fileSize / chunkSize))
}

/** Chunks are counted in six digits; a limit of 100,000 keeps uploading_urls a few megabytes at most. */
export const MAX_CHUNKS = 100_000

/**
 * The largest file an upload takes: 5 TiB, the largest object S3 stores (and far below what the file
 * store's file systems hold). A larger file could never be assembled, so it is refused at the start.
 */
export const MAX_FILE_SIZE = 5 * 1024 ** 4

/**
 * Refuses, when an upload is opened, sizes it could never complete with (docs/uploads.md, "Sizes"): an
 * empty file (its one chunk would cover no byte, and no URL can name an empty range), a file the store
 * cannot keep, a chunk size that is not a positive integer, too many chunks.
 */
export function checkChunking (fileSize: number, chunkSize: number): void {
  if (!Number.isSafeInteger(fileSize) || fileSize > MAX_FILE_SIZE) {
    throw validationError(`Field file_size must be at most ${MAX_FILE_SIZE} (5 TiB, the largest file the media store keeps).`, { file_size: [`must be at most ${MAX_FILE_SIZE}`] })
  }
  // The schema refuses a number below 1; this refuses the numeric string "0" with the same words.
  if (fileSize < 1) throw validationError('Field file_size must be at least 1.', { file_size: ['must be at least 1'] })
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) throw validationError('Field chunk_size must be a positive integer.', { chunk_size: ['must be a positive integer'] })
  if (chunkCount(fileSize, chunkSize) > MAX_CHUNKS) {
    throw validationError(`Field chunk_size is too small: the file would need more than ${MAX_CHUNKS} chunks.`, { chunk_size: [`gives more than ${MAX_CHUNKS} chunks`] })
  }
}
