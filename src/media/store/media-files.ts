/** The names and content types of a media version's files: the worker writes them, serving reads them. */
export const CONTENT_TYPES = { playlist: 'application/vnd.apple.mpegurl', segment: 'video/mp2t', preview: 'image/jpeg' } as const
export const PREVIEW_FILE = 'preview.jpg'
