/** The names and content types of a media version's files: the worker writes them, serving reads them. */
export const CONTENT_TYPES = { playlist: 'application/vnd.apple.mpegurl', segment: 'video/mp2t', preview: 'image/jpeg', storyboard: 'text/vtt; charset=utf-8', mp4: 'video/mp4', m4a: 'audio/mp4' } as const
export const PREVIEW_FILE = 'preview.jpg'
/** A version's storyboard: the WebVTT file, beside its sprite sheets (`storyboard/sprite-NNNNN.jpg`). */
export const STORYBOARD_FILE = 'storyboard/storyboard.vtt'
/** A version's downloads, made when the asset asks for them (`mp4_support: "standard"`). */
export const DOWNLOAD_FILES = { mp4: 'download/video.mp4', m4a: 'download/audio.m4a' } as const
/** The generated preview images of a version: `frames/frame-NNNNN.jpg`, listed with their times in this file. */
export const FRAMES_FILE = 'frames/index.json'
/** A preview image file a client sent (`POST preview_image_files`), kept until it is chosen or replaced. */
export const UPLOADED_PREVIEW_FILE = 'preview-upload'
