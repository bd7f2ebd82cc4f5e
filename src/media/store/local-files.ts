import { randomBytes } from 'node:crypto'
import { constants, createReadStream, createWriteStream } from 'node:fs'
import { copyFile, link, rename, stat, unlink } from 'node:fs/promises'
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
  const temporary = partialBeside(target)
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

/**
 * `downloadTo` for a store on this machine's disk. Objects there are never written in place (a new
 * version is renamed over the old), so a hard link is as good as a copy and costs nothing whatever the
 * size; across file systems, a kernel-side copy (no bytes pass through JavaScript). Either lands in a
 * hidden temporary file beside the target first and is renamed into place once complete.
 */
export async function copyIntoPlace (source: string, filePath: string): Promise<number> {
  const temporary = partialBeside(resolve(filePath))
  try {
    await link(source, temporary).catch(async (error: unknown) => {
      if (!cannotLink(error)) throw error
      await copyFile(source, temporary, constants.COPYFILE_EXCL)
    })
    const { size } = await stat(temporary)
    await rename(temporary, resolve(filePath))
    return size
  } catch (error) {
    await unlink(temporary).catch(() => {})
    throw error
  }
}

/** A hard link refused because of where the files are (another file system, one that has none), not what they are. */
export function cannotLink (error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'EXDEV' || code === 'EPERM' || code === 'EMLINK' || code === 'ENOTSUP'
}

function partialBeside (target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.part`)
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
