import { validationError } from '../../errors/api-error.ts'

/** How many chunks an upload of `fileSize` bytes in chunks of `chunkSize` has (an empty file is one chunk). */
export function chunkCount (fileSize: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(fileSize / chunkSize))
}

/** Chunks are counted in six digits; a limit of 100,000 keeps uploading_urls a few megabytes at most. */
export const MAX_CHUNKS = 100_000

export function checkChunking (fileSize: number, chunkSize: number): void {
  if (!Number.isSafeInteger(fileSize)) throw validationError('Field file_size is too large.', { file_size: ['is too large'] })
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) throw validationError('Field chunk_size must be a positive integer.', { chunk_size: ['must be a positive integer'] })
  if (chunkCount(fileSize, chunkSize) > MAX_CHUNKS) {
    throw validationError(`Field chunk_size is too small: the file would need more than ${MAX_CHUNKS} chunks.`, { chunk_size: [`gives more than ${MAX_CHUNKS} chunks`] })
  }
}
