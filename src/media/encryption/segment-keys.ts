import { createCipheriv, createHmac, randomBytes } from 'node:crypto'

/**
 * AES-128 HLS (docs/playback.md, "Encryption"). Each media version has one secret of 32 random bytes,
 * sealed with the master key in its row; its content keys are derived from it, one per run of
 * `KEY_ROTATION_SEGMENTS` segments, so a key handed to one viewer opens ten segments of one version and
 * nothing else. Segments are AES-128-CBC with PKCS#7 padding and, as RFC 8216 §5.2 says when a key
 * names no IV, the segment's media sequence number as the IV (what ffmpeg's hls muxer writes).
 */

/** Segments under one content key. */
export const KEY_ROTATION_SEGMENTS = 10
/** The version folder that holds no file: its key URIs are answered from the version's sealed secret. */
export const KEYS_FOLDER = 'keys'
export const KEY_FILE = /^key-(\d{5})\.key$/

/** A new version's secret. */
export function newVersionSecret (): Buffer {
  return randomBytes(32)
}

/** The content key of the `index`th run of segments. */
export function contentKey (secret: Buffer, index: number): Buffer {
  return createHmac('sha256', secret).update(`reelhouse hls content key ${index}`).digest().subarray(0, 16)
}

/** The key run a segment falls in. */
export function keyIndexOf (sequence: number): number {
  return Math.floor(sequence / KEY_ROTATION_SEGMENTS)
}

/** The key's URI as a rendition's media playlist names it: beside the renditions, in the version's keys folder. */
export function keyUri (index: number): string {
  return `../${KEYS_FOLDER}/key-${String(index).padStart(5, '0')}.key`
}

/** The `#EXT-X-KEY` line that opens a run of segments. */
export function keyLine (index: number): string {
  return `#EXT-X-KEY:METHOD=AES-128,URI="${keyUri(index)}"`
}

/** One segment encrypted as a player decrypts it: the key of its run, its sequence number as the IV. */
export function encryptSegment (plain: Buffer, secret: Buffer, sequence: number): Buffer {
  const iv = Buffer.alloc(16)
  iv.writeBigUInt64BE(BigInt(sequence), 8)
  const cipher = createCipheriv('aes-128-cbc', contentKey(secret, keyIndexOf(sequence)), iv)
  return Buffer.concat([cipher.update(plain), cipher.final()])
}
