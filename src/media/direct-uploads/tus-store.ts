import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { DataStore, ERRORS, Upload } from '@tus/utils'
import type { MediaStore } from '../store/index.ts'
import { directUploadPrefix, MediaSizeMismatchError } from '../store/index.ts'
import type { DirectUploadRow, DirectUploadsRepository } from './direct-uploads-repository.ts'
import { findDirectUploadOfUrl } from './direct-uploads-repository.ts'
import type { Kysely } from 'kysely'
import type { DB } from '../../db/tables/index.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { ApiError } from '../../errors/api-error.ts'

/**
 * The span `getExpiration` announces (the longest timeout). Each direct upload has its own timeout,
 * checked against the service's clock before a request reaches the library (tus-routes.ts), which also
 * writes `Upload-Expires`; uploads are told to the library without a creation date, so it checks none.
 */
export const EXPIRY_SPAN_MS = 604_800_000

/** A tus upload id: the direct upload's id and the id of the upload created on its URL. */
export function tusUploadId (directUploadId: string, uploadId: string): string {
  return `${directUploadId}.${uploadId}`
}

function parseTusId (id: string): { directUploadId: string, uploadId: string } {
  const [directUploadId = '', uploadId = ''] = id.split('.')
  return { directUploadId, uploadId }
}

/**
 * The tus data store over our media store (docs/uploads.md, "tus"): each PATCH's bytes become one part
 * of the media store under the direct upload's prefix, recorded with its offset in `direct_upload_parts`;
 * completion assembles them (`assemble`) as the chunk protocol does. The bytes that arrived before a
 * client went away are kept (the library ends the body cleanly on an abort). The file store writes a
 * PATCH's body at its offset as it arrives (`streamPartAt`); for S3, whose parts need their length
 * first, the body is spooled to a local file, then put as one part (`putPart`). Offsets live in the
 * database, so any api process answers HEAD.
 */
export class MediaTusStore extends DataStore {
  constructor (
    private readonly db: Kysely<DB>,
    private readonly repository: DirectUploadsRepository,
    private readonly mediaStore: MediaStore,
    private readonly clock: Clock,
    private readonly onExpired: (row: DirectUploadRow) => Promise<void>
  ) {
    super()
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration']
  }

  /** The direct upload a tus id names, with the upload living on it; FILE_NOT_FOUND otherwise. */
  private async rowOf (id: string): Promise<DirectUploadRow> {
    const { directUploadId, uploadId } = parseTusId(id)
    const row = await findDirectUploadOfUrl(this.db, directUploadId)
    if (row === undefined || row.upload_id === null || row.upload_id !== uploadId) throw ERRORS.FILE_NOT_FOUND
    if (row.status === 'cancelled' || row.status === 'timed_out') throw ERRORS.FILE_NO_LONGER_EXISTS
    return row
  }

  override async create (upload: Upload): Promise<Upload> {
    const { directUploadId, uploadId } = parseTusId(upload.id)
    const row = await findDirectUploadOfUrl(this.db, directUploadId)
    if (row === undefined) throw ERRORS.FILE_NOT_FOUND
    const claimed = await this.repository.claimUpload(row.account_id, row.id, {
      upload_id: uploadId,
      upload_length: upload.size ?? null,
      upload_metadata: JSON.stringify(upload.metadata ?? {}),
      updated_at: storedTime(this.clock.now())
    })
    if (!claimed) throw new ApiError('direct_upload_used', 'This URL already created its one upload: continue it at the direct upload\'s upload_url.')
    return upload
  }

  override async getUpload (id: string): Promise<Upload> {
    const row = await this.rowOf(id)
    return new Upload({
      id,
      size: row.upload_length === null ? undefined : Number(row.upload_length),
      offset: Number(row.upload_offset),
      metadata: row.upload_metadata === null ? {} : JSON.parse(row.upload_metadata) as Record<string, string | null>
    })
  }

  override async write (stream: Readable, id: string, offset: number): Promise<number> {
    const row = await this.rowOf(id)
    if (Number(row.upload_offset) !== offset) throw ERRORS.INVALID_OFFSET
    const prefix = directUploadPrefix(row.account_id, row.id)
    if (this.mediaStore.streamPartAt !== undefined) {
      // The file store writes the body where it belongs as it arrives: no spool, one write of each byte.
      const room = row.upload_length === null ? Number.MAX_SAFE_INTEGER : Number(row.upload_length) - offset
      const size = await this.mediaStore.streamPartAt(prefix, offset, stream, room).catch((error: unknown) => {
        throw error instanceof MediaSizeMismatchError ? ERRORS.ERR_SIZE_EXCEEDED : error
      })
      if (size === 0) return offset
      const place = { index: row.part_count, offset, length: size }
      if (!await this.repository.addPart(row.account_id, row.id, place, storedTime(this.clock.now()))) throw ERRORS.INVALID_OFFSET
      return offset + size
    }
    const folder = await mkdtemp(join(tmpdir(), 'reelhouse-tus-'))
    try {
      const spool = join(folder, 'part')
      await pipeline(stream, createWriteStream(spool))
      const { size } = await stat(spool)
      if (size === 0) return offset
      const place = { index: row.part_count, offset, length: size }
      await this.mediaStore.putPart(prefix, place, createReadStream(spool))
      if (!await this.repository.addPart(row.account_id, row.id, place, storedTime(this.clock.now()))) throw ERRORS.INVALID_OFFSET
      return offset + size
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  }

  override async remove (id: string): Promise<void> {
    const row = await this.rowOf(id)
    if (row.status !== 'waiting') throw ERRORS.FILE_NOT_FOUND
    await this.mediaStore.discardParts(directUploadPrefix(row.account_id, row.id))
    await this.repository.dropUpload(row.account_id, row.id, storedTime(this.clock.now()))
  }

  override getExpiration (): number {
    return EXPIRY_SPAN_MS
  }

  /** Ends the waiting direct uploads whose timeout passed: `timed_out`, their parts dropped. */
  override async deleteExpired (): Promise<number> {
    const rows = await this.repository.expired(storedTime(this.clock.now()), 100)
    for (const row of rows) await this.onExpired(row)
    return rows.length
  }
}
