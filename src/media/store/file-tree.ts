import { mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { isValidKey } from './media-keys.ts'
import type { ListedObject } from './media-store.ts'
import { MediaKeyConflictError } from './store-errors.ts'

/** Errors that mean "a file stands where a folder must be" or the reverse: two keys that cannot coexist. */
const CONFLICT = new Set(['ENOTDIR', 'EISDIR', 'EEXIST', 'ENOTEMPTY'])

export function errorCode (error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

/**
 * Renames a finished temporary file onto its key's path. rename(2) replaces the target atomically, so a
 * reader opens either the old file or the new one. The folder is flushed after the rename, so the new
 * name survives a power cut once this resolves (the file's own bytes were flushed by its writer). A
 * concurrent delete may remove the freshly made parent folder between mkdir and rename (it prunes empty
 * folders): then make it again.
 */
export async function moveIntoPlace (temporary: string, target: string, key: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await mkdir(dirname(target), { recursive: true })
      await rename(temporary, target)
      break
    } catch (error) {
      const code = errorCode(error)
      if (code === 'ENOENT' && attempt < 5) continue
      if (code !== undefined && CONFLICT.has(code)) throw new MediaKeyConflictError(key)
      throw error
    }
  }
  await syncFolder(dirname(target))
}

async function syncFolder (folder: string): Promise<void> {
  const handle = await open(folder, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Removes the empty folders between `path`'s folder and `root` (exclusive), deepest first. */
export async function pruneEmptyParents (path: string, root: string): Promise<void> {
  for (let folder = dirname(path); folder.startsWith(root + sep); folder = dirname(folder)) {
    try {
      await rmdir(folder)
    } catch {
      return // not empty, already gone, or busy: the folders above are not empty either
    }
  }
}

/** Every regular file under `folder` whose path relative to `root` is a valid key, in key order. */
export async function listFiles (root: string, folder: string): Promise<ListedObject[]> {
  const found: ListedObject[] = []
  async function walk (dir: string): Promise<void> {
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return
      throw error
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        await walk(path)
      } else if (entry.isFile()) {
        const key = relative(root, path).split(sep).join('/')
        if (!isValidKey(key)) continue
        const info = await stat(path).catch(() => undefined) // deleted meanwhile: not listed
        if (info !== undefined) found.push({ key, size: info.size, lastModified: info.mtime })
      }
    }
  }
  await walk(folder)
  // Plain code-unit order equals S3's byte order for the ASCII keys the key rules allow.
  return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

/**
 * Takes a whole folder out of view in one rename (into the store's temporary folder), then deletes it:
 * readers stop seeing its objects at once, however many there are.
 */
export async function removeFolder (folder: string, trash: string): Promise<void> {
  try {
    await rename(folder, trash)
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return
    throw error
  }
  await rm(trash, { recursive: true, force: true })
}

/** Deletes temporary files older than `maxAgeMs` left by a process that died mid-write. */
export async function sweepStale (folder: string, maxAgeMs: number, now = Date.now()): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[])
  for (const name of names) {
    const path = join(folder, name)
    const info = await stat(path).catch(() => undefined)
    if (info !== undefined && now - info.mtimeMs > maxAgeMs) await rm(path, { recursive: true, force: true }).catch(() => {})
  }
}
