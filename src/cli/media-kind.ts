import { openSync, readSync, closeSync } from 'node:fs'
import { extname } from 'node:path'

export type UploadType = 'video' | 'audio' | 'ad'

/** What an upload is taken for when `--type` is not given, and why (said on stderr). */
export interface MediaKind { type: UploadType, reason: string }

/** Extensions of audio-only files, for files whose first bytes say nothing decisive. */
const AUDIO_EXTENSIONS = new Set(['.mp3', '.m4a', '.wav', '.aac', '.flac', '.oga', '.opus', '.wma', '.aif', '.aiff'])

/**
 * Audio or video, decided from the file: its first bytes where they are decisive (an MP3's ID3 tag or
 * frame header, RIFF/WAVE, an MP4 brand of audio — `M4A `, `M4B `, `M4P ` —, FLAC), else its
 * extension; anything else is a video, as before. The container alone decides, not its streams: an
 * `.mp4` holding only audio is uploaded as a video unless `--type audio` says otherwise.
 */
export function mediaKindOf (path: string): MediaKind {
  const head = Buffer.alloc(16)
  const fd = openSync(path, 'r')
  let read: number
  try {
    read = readSync(fd, head, 0, head.length, 0)
  } finally {
    closeSync(fd)
  }
  const bytes = head.subarray(0, read)
  const ascii = (start: number, end: number): string => bytes.subarray(start, end).toString('latin1')
  if (ascii(0, 3) === 'ID3' || (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] as number) & 0xe6) === 0xe2)) return { type: 'audio', reason: 'an MP3 file' }
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return { type: 'audio', reason: 'a WAV file' }
  if (ascii(0, 4) === 'fLaC') return { type: 'audio', reason: 'a FLAC file' }
  if (ascii(4, 8) === 'ftyp' && ['M4A ', 'M4B ', 'M4P '].includes(ascii(8, 12))) return { type: 'audio', reason: 'an M4A file' }
  const extension = extname(path).toLowerCase()
  if (AUDIO_EXTENSIONS.has(extension)) return { type: 'audio', reason: `a ${extension} file` }
  return { type: 'video', reason: extension === '' ? 'not an audio file' : `a ${extension} file` }
}
