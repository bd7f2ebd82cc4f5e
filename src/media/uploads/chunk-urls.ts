import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

/**
 * Chunk URLs (docs/uploads.md, "Chunk URLs"): absolute, on the main service, and self-authenticating.
 * The query carries the chunk's byte range, an expiry and an HMAC-SHA256 over the asset, the upload,
 * the chunk index, the range and the expiry, keyed by a key derived from the server's master key; a
 * chunk PUT needs no api_key and costs no credits. The path ends in the chunk's name, `chunk-000003`,
 * which appears in no other chunk URL of the upload: `missing_chunks` and `bad_chunks` list these names,
 * so clients find the URL to send again by searching for the name.
 */

/** How long a chunk URL stays valid; asking for `uploading_urls` again gives fresh ones. */
export const CHUNK_URL_LIFETIME_SECONDS = 24 * 3600

export interface ChunkRange {
  index: number
  /** First and last byte (inclusive) of the chunk in the file. */
  start: number
  end: number
}

export interface ChunkUrlFields extends ChunkRange {
  assetId: string
  uploadId: string
  /** Unix time in seconds after which the URL is refused. */
  expires: number
}

/** `chunk-000003`: the name of chunk 3, zero-padded to six digits so it is unique among an upload's URLs. */
export function chunkName (index: number): string {
  return `chunk-${String(index).padStart(6, '0')}`
}

/** The index a chunk name holds, or undefined when the text is not a chunk name. */
export function chunkIndexOf (name: string): number | undefined {
  const match = /^chunk-(\d{6})$/.exec(name)
  return match === null ? undefined : Number(match[1])
}

export function chunkRange (fileSize: number, chunkSize: number, index: number): ChunkRange {
  const start = index * chunkSize
  return { index, start, end: Math.min(fileSize, start + chunkSize) - 1 }
}

/** Signs and checks chunk URLs with a key derived from `tokenKey` for this purpose alone. */
export class ChunkUrlSigner {
  readonly #key: Buffer

  constructor (tokenKey: Buffer) {
    this.#key = Buffer.from(hkdfSync('sha256', tokenKey, Buffer.alloc(0), 'reelhouse chunk urls', 32))
  }

  /** The absolute URL of one chunk under `baseUrl` (PUBLIC_API_URL). */
  url (baseUrl: string, fields: ChunkUrlFields): string {
    const path = `/v2/assets/${encodeURIComponent(fields.assetId)}/uploads/${fields.uploadId}/${chunkName(fields.index)}`
    return `${baseUrl.replace(/\/+$/, '')}${path}?range=${fields.start}-${fields.end}&expires=${fields.expires}&signature=${this.signature(fields)}`
  }

  /** Whether `signature` is the one these fields get; compared in constant time. */
  verify (fields: ChunkUrlFields, signature: string): boolean {
    const expected = Buffer.from(this.signature(fields), 'utf8')
    const given = Buffer.from(signature, 'utf8')
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  /** Hex: its alphabet cannot spell a chunk name, so the name stays unique inside the URL. */
  private signature (fields: ChunkUrlFields): string {
    const text = ['v1', fields.assetId, fields.uploadId, fields.index, `${fields.start}-${fields.end}`, fields.expires].join('\n')
    return createHmac('sha256', this.#key).update(text).digest('hex')
  }
}
