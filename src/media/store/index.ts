// The media store: where uploaded chunks, originals and processed media live (docs/media-store.md).
export type { MediaStore, MediaObjectInfo, ConcatStrategy, PartPlace } from './media-store.ts'
export { openMediaStore } from './open-media-store.ts'
export {
  parseMediaStoreUrl, redactStoreUrl, MediaStoreUrlError,
  type S3StoreLocation
} from './store-url.ts'
export { FileMediaStore } from './file-media-store.ts'
export { mediaStoreReadiness } from './store-readiness.ts'
export { parseRangeHeader, resolveRange, contentRange, type ByteRange } from './byte-range.ts'
export {
  checkKey, checkPrefix, isValidKey,
  assetPrefix, uploadPrefix, directUploadPrefix, partKey, mediaPrefix, newMediaVersion
} from './media-keys.ts'
export { CONTENT_TYPES, DOWNLOAD_FILES, FRAMES_FILE, PREVIEW_FILE, STORYBOARD_FILE, UPLOADED_PREVIEW_FILE } from './media-files.ts'
export {
  MediaNotFoundError, RangeNotSatisfiableError, InvalidRangeError, InvalidMediaKeyError,
  MediaKeyConflictError, MediaSizeMismatchError, MediaStoreUnavailableError
} from './store-errors.ts'
