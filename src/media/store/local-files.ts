import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { checkKey } from './media-keys.ts'
import type { MediaStore, PutResult } from './media-store.ts'

/**
 * `downloadTo` for any store: the object streams into a hidden temporary file beside the target, which
 * is renamed into place once complete, so the target never holds a partial download.
 */
export async function downloadToFile (store: MediaStore, key: string, filePath: string): Promise<number> {
  const target = resolve(filePath)
  const object = await store.get(key)
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.part`)
  try {
    await pipeline(object.body, createWriteStream(temporary, { flags: 'wx' }))
    await rename(temporary, target)
  } catch (error) {
    object.body.destroy()
    await unlink(temporary).catch(() => {})
    throw error
  }
  return object.contentLength
}

/** `uploadFrom` for any store: a streamed put with the file's size as the declared length. */
export async function uploadFile (store: MediaStore, filePath: string, key: string, contentType: string): Promise<PutResult> {
  checkKey(key)
  const { size } = await stat(filePath)
  const body = createReadStream(filePath)
  try {
    return await store.put(key, body, { contentLength: size, contentType })
  } finally {
    body.destroy()
  }
}
