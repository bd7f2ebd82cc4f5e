import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { MediaRejectedError } from './media-errors.ts'
import { runMediaTool } from './media-runner.ts'
import type { MediaTools } from './processing-types.ts'

/**
 * A preview image a client sends (`POST preview_image_files`): one whole JPEG or PNG, nothing after its
 * end marker (the signature scheme is open to length extension, whose padding would follow the image),
 * at most 8192 pixels a side, and decoded in full by a sandboxed ffmpeg run before it is kept.
 */

export const MAX_PREVIEW_SIDE = 8192
const DECODE_TIMEOUT_MS = 30_000
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export interface CheckedImage {
  type: 'image/jpeg' | 'image/png'
  width: number
  height: number
}

/** The image's type and size read from its structure; a MediaRejectedError says what is wrong. */
export function imageStructure (bytes: Buffer): CheckedImage {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegStructure(bytes)
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return pngStructure(bytes)
  throw new MediaRejectedError('The body is not a JPEG or PNG image.')
}

/**
 * JPEG: marker segments up to each scan, the entropy-coded data up to the next marker, until EOI, which
 * must be the last two bytes.
 */
function jpegStructure (b: Buffer): CheckedImage {
  let i = 2
  let size: { width: number, height: number } | null = null
  for (;;) {
    if (i + 1 >= b.length || b[i] !== 0xff) throw new MediaRejectedError('The JPEG image is cut short or damaged.')
    let marker = b[i + 1] as number
    while (marker === 0xff && i + 2 < b.length) marker = b[++i + 1] as number
    i += 2
    if (marker === 0xd9) {
      if (i !== b.length) throw new MediaRejectedError('Bytes follow the end of the JPEG image (its EOI marker).')
      if (size === null) throw new MediaRejectedError('The JPEG image has no frame header.')
      return { type: 'image/jpeg', ...size }
    }
    if (marker >= 0xd0 && marker <= 0xd7) continue
    if (i + 2 > b.length) throw new MediaRejectedError('The JPEG image is cut short.')
    const length = b.readUInt16BE(i)
    if (length < 2 || i + length > b.length) throw new MediaRejectedError('The JPEG image is cut short or damaged.')
    // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC): the frame header with the picture's size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc && length >= 7) {
      size = { height: b.readUInt16BE(i + 3), width: b.readUInt16BE(i + 5) }
    }
    i += length
    if (marker === 0xda) {
      // Entropy-coded data: 0xFF is followed by 0x00 (a stuffed byte) or a restart marker inside it.
      while (i + 1 < b.length && !(b[i] === 0xff && b[i + 1] !== 0x00 && !((b[i + 1] as number) >= 0xd0 && (b[i + 1] as number) <= 0xd7))) i++
    }
  }
}

/** PNG: chunks with their lengths and CRCs from IHDR to IEND, which must end the file. */
function pngStructure (b: Buffer): CheckedImage {
  let i = 8
  let size: { width: number, height: number } | null = null
  while (i + 12 <= b.length) {
    const length = b.readUInt32BE(i)
    const type = b.toString('latin1', i + 4, i + 8)
    const end = i + 12 + length
    if (end > b.length) break
    if (crc32(b.subarray(i + 4, i + 8 + length)) !== b.readUInt32BE(i + 8 + length)) throw new MediaRejectedError(`The PNG image's ${type.replace(/[^A-Za-z]/g, '?')} chunk is damaged (its CRC does not match).`)
    if (i === 8) {
      if (type !== 'IHDR' || length !== 13) throw new MediaRejectedError('The PNG image does not start with its header (IHDR).')
      size = { width: b.readUInt32BE(i + 8), height: b.readUInt32BE(i + 12) }
    }
    if (type === 'IEND') {
      if (end !== b.length) throw new MediaRejectedError('Bytes follow the end of the PNG image (its IEND chunk).')
      return { type: 'image/png', ...(size as { width: number, height: number }) }
    }
    i = end
  }
  throw new MediaRejectedError('The PNG image is cut short (no IEND chunk).')
}

let crcTable: Uint32Array | undefined
function crc32 (bytes: Buffer): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  let crc = 0xffffffff
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/**
 * Checks an uploaded preview image whole: its structure, its size, then a full decode by ffmpeg (the
 * `jpeg_pipe`/`png_pipe` demuxer only, the file alone in a folder of its own under `scratchDir`, the
 * runner's limits; any decoding error refuses it).
 */
export async function checkPreviewImage (tools: MediaTools, bytes: Buffer, scratchDir: string, options: { signal?: AbortSignal } = {}): Promise<CheckedImage> {
  const image = imageStructure(bytes)
  if (image.width < 1 || image.height < 1 || image.width > MAX_PREVIEW_SIDE || image.height > MAX_PREVIEW_SIDE) {
    throw new MediaRejectedError(`The image is ${image.width}×${image.height} pixels; previews may be 1 to ${MAX_PREVIEW_SIDE} pixels a side.`)
  }
  await mkdir(scratchDir, { recursive: true })
  const dir = await mkdtemp(join(scratchDir, 'image-'))
  try {
    await mkdir(join(dir, 'in'))
    const input = join(dir, 'in', image.type === 'image/png' ? 'image.png' : 'image.jpg')
    await writeFile(input, bytes)
    const demuxer = image.type === 'image/png' ? 'png_pipe' : 'jpeg_pipe'
    const result = await runMediaTool(tools, {
      program: 'ffmpeg',
      args: (run) => [
        '-nostdin', '-hide_banner', '-loglevel', 'error', '-xerror',
        '-protocol_whitelist', 'file', '-format_whitelist', demuxer, '-f', demuxer, '-threads', '1', '-i', `file:${run.input}`,
        '-map', '0:v:0', '-frames:v', '1', '-f', 'null', '-'
      ],
      inputFile: input,
      outDir: null,
      what: 'Decoding the preview image',
      timeoutMs: DECODE_TIMEOUT_MS,
      signal: options.signal
    })
    if (result.exitCode !== 0 || result.stderrTail.trim() !== '') throw new MediaRejectedError('The image does not decode.')
    return image
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
