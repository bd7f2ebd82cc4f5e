import { randomBytes } from 'node:crypto'
import type { BigIntStats, WriteStream } from 'node:fs'
import { link, mkdir, open, readFile, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises'
import { once } from 'node:events'
import { join, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { contentRange, resolveRange, toByteRange } from './byte-range.ts'
import { errorCode, listFiles, moveIntoPlace, pruneEmptyParents, removeFolder, sweepStale } from './file-tree.ts'
import { FileRangeStream } from './file-read-stream.ts'
import { checkAssembled, WRITE_BUFFER_BYTES, writeNewFile, writePartAt, writeStreamAt } from './file-parts.ts'
import { cannotLink, copyIntoPlace, uploadFile } from './local-files.ts'
import { checkKey, checkPrefix } from './media-keys.ts'
import {
  DEFAULT_CONTENT_TYPE, type ConcatResult, type ConcatSource, type GetOptions, type ListedObject, type MediaObject,
  type MediaObjectInfo, type MediaStore, type PartPlace, type PutOptions, type PutResult
} from './media-store.ts'
import { MediaNotFoundError, MediaSizeMismatchError, RangeNotSatisfiableError } from './store-errors.ts'

/** The file, under an assembly's prefix, that its parts are written into. */
const ASSEMBLY_FILE = 'assembly'

/** A temporary file this old belongs to a process that died mid-write. */
const STALE_TEMPORARY_MS = 24 * 60 * 60 * 1000

/**
 * Media as plain files under one root folder, shared by every process on the machine:
 * `objects/<key>` holds the bytes, `types/<key>` the content type when one was given, and `tmp/` the
 * writes in progress (same file system, so a finished write is renamed into place atomically), and
 * `parts/<prefix>assembly` an object being assembled from parts written at their offsets.
 */
export class FileMediaStore implements MediaStore {
  readonly kind = 'file' as const
  readonly description: string
  private readonly objects: string
  private readonly types: string
  private readonly temporary: string
  private readonly parts: string

  private constructor (readonly root: string) {
    this.description = `files in ${root}`
    this.objects = join(root, 'objects')
    this.types = join(root, 'types')
    this.temporary = join(root, 'tmp')
    this.parts = join(root, 'parts')
  }

  /** Opens (and creates) a store rooted at `root`, clearing temporary files a crashed writer left behind. */
  static async open (root: string): Promise<FileMediaStore> {
    const store = new FileMediaStore(resolve(root))
    for (const folder of [store.objects, store.types, store.temporary, store.parts]) await mkdir(folder, { recursive: true })
    await sweepStale(store.temporary, STALE_TEMPORARY_MS)
    return store
  }

  async put (key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<PutResult> {
    checkKey(key)
    const { contentLength, contentType } = options
    if (Buffer.isBuffer(body) && contentLength !== undefined && body.length !== contentLength) {
      throw new MediaSizeMismatchError(contentLength, body.length)
    }
    const temporary = this.temporaryPath()
    try {
      await writeNewFile(temporary, Buffer.isBuffer(body) ? Readable.from([body]) : body, contentLength)
      return await this.place(temporary, key, contentType, await stat(temporary, { bigint: true }))
    } catch (error) {
      if (!Buffer.isBuffer(body)) body.destroy()
      await unlink(temporary).catch(() => {})
      throw error
    }
  }

  async get (key: string, options: GetOptions = {}): Promise<MediaObject> {
    checkKey(key)
    const wanted = options.range === undefined ? undefined : toByteRange(options.range)
    // Open first and stat the open file: size, range and bytes then all belong to the same version,
    // even when a writer renames a new one into place meanwhile.
    const handle = await this.openObject(key)
    try {
      // A key written once (options.known) needs no second look: the open file is the one described.
      const info = options.known?.key === key ? options.known : await this.describe(key, handle, options.contentType)
      const range = wanted === undefined ? undefined : resolveRange(wanted, info.size)
      if (range === null) throw new RangeNotSatisfiableError(key, info.size)
      const body = info.size === 0
        ? Readable.from([])
        : new FileRangeStream(handle, range?.start ?? 0, range?.end ?? info.size - 1)
      if (info.size === 0) await handle.close()
      return {
        ...info,
        body,
        contentLength: range === undefined ? info.size : range.end - range.start + 1,
        range,
        contentRange: range === undefined ? undefined : contentRange(range, info.size)
      }
    } catch (error) {
      await handle.close().catch(() => {})
      throw error
    }
  }

  async head (key: string): Promise<MediaObjectInfo> {
    checkKey(key)
    const handle = await this.openObject(key)
    try {
      return await this.describe(key, handle)
    } finally {
      await handle.close()
    }
  }

  async exists (key: string): Promise<boolean> {
    checkKey(key)
    const info = await stat(this.objectPath(key)).catch(() => undefined)
    return info?.isFile() === true
  }

  async delete (key: string): Promise<void> {
    checkKey(key)
    for (const path of [this.objectPath(key), this.typePath(key)]) {
      try {
        await unlink(path)
      } catch (error) {
        if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR' && errorCode(error) !== 'EISDIR') throw error
      }
    }
    await pruneEmptyParents(this.objectPath(key), this.objects)
    await pruneEmptyParents(this.typePath(key), this.types)
  }

  async deletePrefix (prefix: string): Promise<number> {
    checkPrefix(prefix, { allowEmpty: false })
    const folder = join(this.objects, prefix)
    const count = (await listFiles(this.objects, folder)).length
    await removeFolder(folder, this.temporaryPath())
    await removeFolder(join(this.types, prefix), this.temporaryPath())
    await pruneEmptyParents(folder, this.objects)
    await pruneEmptyParents(join(this.types, prefix), this.types)
    return count
  }

  list (prefix: string): AsyncIterable<ListedObject> {
    checkPrefix(prefix, { allowEmpty: true })
    const { objects } = this
    return (async function * () {
      yield * await listFiles(objects, join(objects, prefix))
    })()
  }

  /** The object's file, linked or copied by the kernel (local-files.ts), renamed into place once whole. */
  async downloadTo (key: string, filePath: string): Promise<number> {
    checkKey(key)
    const handle = await this.openObject(key)
    try {
      if (!(await handle.stat()).isFile()) throw new MediaNotFoundError(key) // a folder: the key is only a prefix here
    } finally {
      await handle.close()
    }
    return await copyIntoPlace(this.objectPath(key), filePath)
  }

  /**
   * A file on the same file system enters the store by a hard link, synced to disk first: no bytes are
   * copied (the worker's segments, sprites and downloads; the caller never writes the file again). Across
   * file systems, a streamed put.
   */
  async uploadFrom (filePath: string, key: string, contentType: string): Promise<PutResult> {
    checkKey(key)
    const temporary = this.temporaryPath()
    try {
      await link(filePath, temporary)
    } catch (error) {
      if (cannotLink(error)) return await uploadFile(this, filePath, key, contentType)
      throw error
    }
    try {
      const handle = await open(temporary, 'r')
      let written: BigIntStats
      try {
        await handle.sync()
        written = await handle.stat({ bigint: true })
      } finally {
        await handle.close()
      }
      return await this.place(temporary, key, contentType, written)
    } catch (error) {
      await unlink(temporary).catch(() => {})
      throw error
    }
  }

  /** Streams each part onto the end of one temporary file, then renames it into place. */
  async concat (sources: readonly ConcatSource[], targetKey: string, options: { contentType?: string } = {}): Promise<ConcatResult> {
    checkKey(targetKey)
    const keys = sources.map((source) => checkKey(typeof source === 'string' ? source : source.key))
    if (keys.length === 0) throw new RangeError('concat needs at least one source key')
    const temporary = this.temporaryPath()
    const handle = await open(temporary, 'wx')
    const sink = handle.createWriteStream({ flush: true, highWaterMark: WRITE_BUFFER_BYTES })
    try {
      for (const key of keys) await appendObject(sink, await this.openObject(key))
      sink.end()
      await once(sink, 'close')
      const written = await stat(temporary)
      await this.writeType(targetKey, options.contentType)
      await moveIntoPlace(temporary, this.objectPath(targetKey), targetKey)
      return { size: written.size, strategy: 'append' }
    } catch (error) {
      sink.destroy()
      await handle.close().catch(() => {})
      await unlink(temporary).catch(() => {})
      throw error
    }
  }

  async putPart (prefix: string, place: PartPlace, body: Readable): Promise<void> {
    await writePartAt(this.assemblyPath(prefix), place, body)
  }

  async streamPartAt (prefix: string, offset: number, body: Readable, maxLength: number): Promise<number> {
    return await writeStreamAt(this.assemblyPath(prefix), offset, body, maxLength)
  }

  /** The parts were written in place into one file: it is checked, then renamed onto its key. */
  async assemble (prefix: string, places: readonly PartPlace[], targetKey: string, options: { contentType?: string } = {}): Promise<ConcatResult> {
    checkKey(targetKey)
    const assembly = this.assemblyPath(prefix)
    const size = await checkAssembled(assembly, `${prefix}${ASSEMBLY_FILE}`, places)
    await this.writeType(targetKey, options.contentType)
    await moveIntoPlace(assembly, this.objectPath(targetKey), targetKey)
    await pruneEmptyParents(assembly, this.parts)
    return { size, strategy: 'in-place' }
  }

  async discardParts (prefix: string): Promise<void> {
    const assembly = this.assemblyPath(prefix)
    await unlink(assembly).catch((error: unknown) => {
      if (errorCode(error) !== 'ENOENT') throw error
    })
    await pruneEmptyParents(assembly, this.parts)
  }

  async close (): Promise<void> {}

  /** Where the parts under `prefix` are written: one file, at their offsets. */
  private assemblyPath (prefix: string): string {
    return join(this.parts, checkPrefix(prefix, { allowEmpty: false }), ASSEMBLY_FILE)
  }

  /** A complete temporary file becomes the object: its type first, then the rename into place. */
  private async place (temporary: string, key: string, contentType: string | undefined, written: BigIntStats): Promise<PutResult> {
    await this.writeType(key, contentType)
    await moveIntoPlace(temporary, this.objectPath(key), key)
    return { size: Number(written.size), etag: etagOf(written) }
  }

  private objectPath (key: string): string {
    return join(this.objects, key)
  }

  private typePath (key: string): string {
    return join(this.types, key)
  }

  private temporaryPath (): string {
    return join(this.temporary, randomBytes(12).toString('hex'))
  }

  private async openObject (key: string): Promise<FileHandle> {
    try {
      return await open(this.objectPath(key), 'r')
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') throw new MediaNotFoundError(key)
      throw error
    }
  }

  private async describe (key: string, handle: FileHandle, knownType?: string): Promise<MediaObjectInfo> {
    const info = await handle.stat({ bigint: true })
    if (!info.isFile()) throw new MediaNotFoundError(key) // a folder: the key is only a prefix here
    const contentType = knownType ?? await readFile(this.typePath(key), 'utf8').catch(() => DEFAULT_CONTENT_TYPE)
    return {
      key,
      size: Number(info.size),
      contentType,
      etag: etagOf(info),
      lastModified: new Date(Number(info.mtimeMs))
    }
  }

  /** The content type goes first: a reader may briefly see the new type with the old bytes, never a partial file. */
  private async writeType (key: string, contentType: string | undefined): Promise<void> {
    if (contentType === undefined) {
      await unlink(this.typePath(key)).catch(() => {})
      return
    }
    const temporary = this.temporaryPath()
    await writeFile(temporary, contentType, { flag: 'wx' })
    await moveIntoPlace(temporary, this.typePath(key), key).catch(async (error: unknown) => {
      await unlink(temporary).catch(() => {})
      throw error
    })
  }
}

/** Changes with every write: a write is a new file (new inode) renamed into place. */
function etagOf (info: BigIntStats): string {
  return `"${info.ino.toString(16)}-${info.size.toString(16)}-${info.mtimeNs.toString(16)}"`
}

/** Copies one open object onto the end of `sink`, honouring back-pressure; closes the object. */
async function appendObject (sink: WriteStream, handle: FileHandle): Promise<void> {
  const source = handle.createReadStream()
  try {
    for await (const chunk of source) {
      if (!sink.write(chunk)) await once(sink, 'drain')
    }
  } finally {
    source.destroy()
  }
}
