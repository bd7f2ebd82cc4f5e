// Signed URLs of private originals (docs/media.md, "Originals").
export { originalUrls, type OriginalUrls } from './original-urls.ts'
