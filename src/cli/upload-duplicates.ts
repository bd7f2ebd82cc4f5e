import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import type { Asset, Reelhouse } from 'reelhouse/client'

/**
 * The metadata name under which `reelhouse upload` records the SHA-256 of the file it uploaded, so
 * that uploading the same file again is noticed (docs/cli.md, "Uploads"). The server never reads the
 * file whole, so it holds no checksum of its own.
 */
export const CHECKSUM_METADATA = 'reelhouse_sha256'

/** The SHA-256 of a file, read as a stream (a large file is never held in memory). */
export async function sha256Of (path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** Live assets whose original has this size and this checksum (recorded by an earlier upload). */
export async function liveCopiesOf (client: Reelhouse, size: number, sha256: string): Promise<Asset[]> {
  const found: Asset[] = []
  // The checksum is hex, so it needs no escaping inside the quotes.
  for await (const asset of client.assets.list({ where: `status='live' AND metadata.${CHECKSUM_METADATA}='${sha256}'` })) {
    if (asset.file_size === size) found.push(asset)
  }
  return found
}
