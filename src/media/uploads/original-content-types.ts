/** The content type an original is stored with, from its file name (the probe decides what it really is). */
const BY_EXTENSION: Record<string, string> = {
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska',
  avi: 'video/x-msvideo', ts: 'video/mp2t', mpg: 'video/mpeg', mpeg: 'video/mpeg', flv: 'video/x-flv', wmv: 'video/x-ms-wmv', ogv: 'video/ogg',
  mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', wav: 'audio/wav', flac: 'audio/flac', ogg: 'audio/ogg'
}

export function contentTypeOf (fileName: string): string {
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(fileName)?.[1]?.toLowerCase()
  return (extension === undefined ? undefined : BY_EXTENSION[extension]) ?? 'application/octet-stream'
}
