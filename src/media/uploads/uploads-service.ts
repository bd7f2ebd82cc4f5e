import type { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { Caller } from '../../auth/caller.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import { withoutCommitHook } from '../../db/commit-hook.ts'
import type { Database } from '../../db/index.ts'
import type { DB, UploadKind } from '../../db/tables/index.ts'
import { ApiError, validationError } from '../../errors/api-error.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { hexId } from '../../lib/ids.ts'
import { enqueueMediaJob } from '../jobs/index.ts'
import { assetPrefix, MediaNotFoundError, MediaSizeMismatchError, uploadPrefix, type MediaStore, type PartPlace } from '../store/index.ts'
import { checkChunking, chunkCount, isUploadType, type AssetRow, type AssetsService } from '../../resources/assets/index.ts'
import { CHUNK_URL_LIFETIME_SECONDS, chunkIndexOf, chunkName, chunkRange, ChunkUrlSigner } from './chunk-urls.ts'
import { contentTypeOf } from './original-content-types.ts'
import { createUploadsRepository, findUploadOfChunkUrl, type UploadRow } from './uploads-repository.ts'
import type { ChunkQuery, ProcessBody, ReplacementBody, SourceFileInfo, UploadStatusBody } from './uploads-schemas.ts'

export interface UploadsDeps {
  database: Database
  clock: Clock
  mediaStore: MediaStore
  /** Key material for chunk URLs (SecretBox.tokenKey). */
  tokenKey: Buffer
  /** PUBLIC_API_URL: chunk URLs start with it, never with the request's Host. */
  publicApiUrl: string
  /** Signs an original's URL for `source_file_info` (docs/media.md, "Originals"). */
  signOriginal: (url: string) => string
}

export interface ChunkReceipt { chunk: string, size: number }

/** The one processing profile (docs/uploads.md, "Processing profiles"). */
export const PROCESSING_PROFILES = [{ id: 'default', name: 'Default', description: 'H.264 + AAC HLS ladder capped at the source, 6 s segments, a JPEG preview' }]

/**
 * The upload protocol of video, audio and ad assets (docs/uploads.md): chunk URLs, chunk PUTs streamed
 * to the media store, completion (the chunks joined into the original, the asset moved to `processing`
 * and a processing job recorded in the same transaction), abandonment, and replacements.
 */
export function createUploadsService ({ database, clock, mediaStore, tokenKey, publicApiUrl, signOriginal }: UploadsDeps, assets: Pick<AssetsService, 'find' | 'change'>) {
  const uploads = createUploadsRepository(database.db)
  const signer = new ChunkUrlSigner(tokenKey)

  /** The asset, as the caller may see it, checked to be an uploaded type and to match a given `asset_id`. */
  async function uploadAsset (caller: Caller, ref: string, givenId: string | undefined, trx?: Kysely<DB>): Promise<AssetRow> {
    const asset = await assets.find(caller, ref, trx)
    if (givenId !== undefined && givenId !== asset.id && givenId !== asset.external_id) {
      throw validationError(`Field asset_id: ${givenId} is not the asset of the path (${asset.id}).`, { asset_id: ['differs from the asset of the path'] })
    }
    if (!isUploadType(asset.asset_type)) {
      throw new ApiError('upload_not_supported', `Asset ${asset.id} is a ${asset.asset_type}; only video, audio and ad assets have uploaded media.`)
    }
    return asset
  }

  /**
   * The open upload of `kind`: an ingest upload is opened on first use while the asset is `uploading`
   * (from the file_name, file_size and chunk_size it was created with); a replacement one by `startReplacement`.
   */
  async function openUpload (trx: Kysely<DB>, asset: AssetRow, kind: UploadKind): Promise<UploadRow> {
    const open = await uploads.findOpen(asset.account_id, asset.id, kind, trx)
    if (open !== undefined) return open
    if (kind === 'replacement') {
      throw new ApiError('asset_status_conflict', `Asset ${asset.id} has no replacement in progress: start one with POST /v2/assets/${asset.id}/replacement.`)
    }
    if (asset.status !== 'uploading') {
      throw new ApiError('asset_status_conflict', `The asset is ${asset.status}; it is not waiting for an upload (replace its media with /replacement).`)
    }
    const fileSize = Number(asset.file_size ?? 0)
    const chunkSize = asset.chunk_size === null ? Math.max(1, fileSize) : Number(asset.chunk_size)
    const now = storedTime(clock.now())
    const row: UploadRow = {
      id: hexId(), account_id: asset.account_id, asset_id: asset.id, kind, state: 'uploading',
      file_name: asset.original_file_name ?? 'upload', file_size: fileSize, chunk_size: chunkSize,
      chunk_count: chunkCount(fileSize, chunkSize), original_key: null, created_at: now, updated_at: now
    }
    await uploads.insert(row, trx)
    return row
  }

  /** Names of the chunks not yet received, and of those whose last PUT had the wrong size. */
  async function outstanding (upload: UploadRow): Promise<{ missing: string[], bad: string[] }> {
    const received = await uploads.chunksOf(upload.account_id, upload.id)
    const seen = new Map(received.map((chunk) => [chunk.chunk_index, chunk.state]))
    const missing: string[] = []
    const bad: string[] = []
    for (let index = 0; index < upload.chunk_count; index++) {
      const state = seen.get(index)
      if (state === undefined) missing.push(chunkName(index))
      else if (state === 'bad') bad.push(chunkName(index))
    }
    return { missing, bad }
  }

  /** Where an upload's chunks are put until they are assembled. */
  function partsOf (upload: UploadRow): string {
    return uploadPrefix(upload.account_id, upload.asset_id, upload.id)
  }

  /**
   * Assembles the chunks into the original, in the store, under the asset's prefix. A completion
   * retried after its transaction failed finds the chunks already assembled: the original is kept.
   */
  async function joinChunks (upload: UploadRow): Promise<string> {
    const fileSize = Number(upload.file_size)
    const chunkSize = Number(upload.chunk_size)
    const places = Array.from({ length: upload.chunk_count }, (_, index) => {
      const { start, end } = chunkRange(fileSize, chunkSize, index)
      return { index, offset: start, length: end - start + 1 }
    })
    const originalKey = `${assetPrefix(upload.account_id, upload.asset_id)}originals/${upload.id}`
    try {
      await mediaStore.assemble(partsOf(upload), places, originalKey, { contentType: contentTypeOf(upload.file_name) })
    } catch (error) {
      const kept = error instanceof MediaNotFoundError && await mediaStore.head(originalKey).then((info) => info.size === fileSize, () => false)
      if (!kept) throw error
    }
    return originalKey
  }

  /** Removes an abandoned upload's chunks; a failure leaves only garbage behind. */
  async function dropChunks (upload: UploadRow): Promise<void> {
    await mediaStore.discardParts(partsOf(upload)).catch(() => {})
  }

  /**
   * Completes an upload: every chunk must be good; the original is joined in the store before the
   * transaction that closes the upload, records the job and (for an ingest) moves the asset to
   * `processing`, so the 200 means the original is stored and the job recorded.
   */
  async function complete<T> (caller: Caller, ref: string, kind: UploadKind, givenId: string | undefined, answer: T): Promise<T> {
    const asset = await uploadAsset(caller, ref, givenId)
    const upload = await withoutCommitHook(async () => await withAccountLock(database, caller.accountId, async (trx) => await openUpload(trx, asset, kind)))
      .catch(async (error: unknown) => {
        if (await alreadyUploaded(asset, kind)) return undefined
        throw error
      })
    if (upload === undefined) return answer // a repeated completion of a completed upload
    const { missing, bad } = await outstanding(upload)
    if (missing.length > 0 || bad.length > 0) {
      const parts = [missing.length > 0 ? `${missing.length} missing` : '', bad.length > 0 ? `${bad.length} with the wrong size` : ''].filter(Boolean)
      throw new ApiError('upload_incomplete', `The upload is incomplete: ${parts.join(' and ')} chunk(s); send them again.`, { missing_chunks: missing, bad_chunks: bad })
    }
    return await closeUpload(caller, asset, upload, kind, await joinChunks(upload), answer)
  }

  /** The transaction that closes an upload whose original is stored: the job recorded, an ingest's asset moved to `processing`. */
  async function closeUpload<T> (caller: Caller, asset: AssetRow, upload: UploadRow, kind: UploadKind, originalKey: string, answer: T): Promise<T> {
    const now = storedTime(clock.now())
    return await assets.change(caller, asset.id, async (trx, before) => {
      if ((await uploads.findOpen(caller.accountId, before.id, kind, trx))?.id !== upload.id) {
        throw new ApiError('upload_closed', 'The upload was completed or abandoned by another request meanwhile.')
      }
      await uploads.finish(caller.accountId, upload.id, { state: 'uploaded', original_key: originalKey, updated_at: now }, trx)
      await enqueueMediaJob(trx, caller.accountId, { assetId: before.id, kind, originalKey, now })
      // The captions the asset was created asking for, transcribed from the same original.
      const languages = kind === 'ingest' && before.generate_captions !== null ? JSON.parse(before.generate_captions) as string[] : []
      for (const language of languages) await enqueueMediaJob(trx, caller.accountId, { assetId: before.id, kind: 'captions', originalKey, language, now })
      return kind === 'ingest' ? { status: 'processing' } : {}
    }, () => answer)
  }

  /** Whether the newest upload of `kind` is already complete: a repeated completion answers as the first did. */
  async function alreadyUploaded (asset: AssetRow, kind: UploadKind): Promise<boolean> {
    const last = await uploads.findLastUploaded(asset.account_id, asset.id)
    return last !== undefined && last.kind === kind && await uploads.findOpen(asset.account_id, asset.id, kind) === undefined &&
      (kind === 'replacement' || asset.status !== 'uploading')
  }

  /** Abandons the open upload: its chunks are removed; an asset still `uploading` takes a new upload later. */
  async function abandon (caller: Caller, ref: string, kind: UploadKind, givenId: string | undefined): Promise<{ status: 'failed' }> {
    const asset = await uploadAsset(caller, ref, givenId)
    const upload = await withAccountLock(database, caller.accountId, async (trx) => {
      const open = await openUpload(trx, asset, kind)
      await uploads.finish(caller.accountId, open.id, { state: 'failed', original_key: null, updated_at: storedTime(clock.now()) }, trx)
      return open
    })
    await dropChunks(upload)
    return { status: 'failed' }
  }

  return {
    /**
     * Completes the ingest of an asset still `uploading` whose bytes were stored as parts under `prefix`
     * (a direct upload's tus PATCHes): the parts become the original and the asset goes on exactly as after
     * `upload_status uploaded`. Repeating it after it succeeded changes nothing.
     */
    async ingestParts (caller: Caller, assetId: string, prefix: string, places: readonly PartPlace[]): Promise<void> {
      const asset = await uploadAsset(caller, assetId, undefined)
      if (asset.status !== 'uploading' && await alreadyUploaded(asset, 'ingest')) return
      const upload = await withoutCommitHook(async () => await withAccountLock(database, caller.accountId, async (trx) => await openUpload(trx, asset, 'ingest')))
      const originalKey = `${assetPrefix(upload.account_id, upload.asset_id)}originals/${upload.id}`
      try {
        await mediaStore.assemble(prefix, places, originalKey, { contentType: contentTypeOf(upload.file_name) })
      } catch (error) {
        const kept = error instanceof MediaNotFoundError && await mediaStore.head(originalKey).then((info) => info.size === Number(upload.file_size), () => false)
        if (!kept) throw error
      }
      await closeUpload(caller, asset, upload, 'ingest', originalKey, undefined)
    },

    /** `GET uploading_urls`: fresh chunk URLs of the open upload (resuming keeps the chunks received). */
    async uploadingUrls (caller: Caller, ref: string, kind: UploadKind, givenId: string | undefined): Promise<string[]> {
      const asset = await uploadAsset(caller, ref, givenId)
      const upload = await withAccountLock(database, caller.accountId, async (trx) => await openUpload(trx, asset, kind))
      const expires = Math.floor(clock.now() / 1000) + CHUNK_URL_LIFETIME_SECONDS
      const fileSize = Number(upload.file_size)
      const chunkSize = Number(upload.chunk_size)
      return Array.from({ length: upload.chunk_count }, (_, index) =>
        signer.url(publicApiUrl, { assetId: asset.id, uploadId: upload.id, expires, ...chunkRange(fileSize, chunkSize, index) }))
    },

    /** `PUT upload_status`: `uploaded` completes the upload, `failed` abandons it. */
    async setStatus (caller: Caller, ref: string, kind: UploadKind, body: UploadStatusBody): Promise<{ status: 'uploaded' | 'failed' }> {
      return body.status === 'uploaded'
        ? await complete(caller, ref, kind, body.asset_id, { status: 'uploaded' as const })
        : await abandon(caller, ref, kind, body.asset_id)
    },

    /**
     * `POST process`: like `upload_status uploaded` for an asset still uploading; for an asset whose
     * processing failed (`error`), processes its uploaded original again.
     */
    async process (caller: Caller, ref: string, body: ProcessBody): Promise<{ status: string }> {
      if (body.processing_profile_id !== undefined && !PROCESSING_PROFILES.some((profile) => profile.id === body.processing_profile_id)) {
        throw validationError(`Field processing_profile_id: there is no processing profile ${body.processing_profile_id} (the one profile is "default").`, { processing_profile_id: ['is not a processing profile'] })
      }
      const asset = await uploadAsset(caller, ref, undefined)
      if (asset.status === 'uploading') return await complete(caller, ref, 'ingest', undefined, { status: 'processing' })
      if (asset.status !== 'error') throw new ApiError('asset_status_conflict', `The asset is ${asset.status}; only an uploading asset or one whose processing failed can be processed.`)
      const now = storedTime(clock.now())
      return await assets.change(caller, asset.id, async (trx, before) => {
        const last = await uploads.findLastUploaded(caller.accountId, before.id, trx)
        if (before.status !== 'error' || last?.original_key == null) throw new ApiError('asset_status_conflict', `The asset is ${before.status} and has no original to process.`)
        await enqueueMediaJob(trx, caller.accountId, { assetId: before.id, kind: 'ingest', originalKey: last.original_key, now })
        return { status: 'processing' }
      }, (after) => ({ status: after.status }))
    },

    /** `POST replacement`: opens an upload of new media; the asset stays on its current media until that is processed. */
    async startReplacement (caller: Caller, ref: string, body: ReplacementBody): Promise<{ status: 'uploading', file_name: string, file_size: number, chunk_size: number }> {
      const fileSize = Number(body.file_size)
      const chunkSize = body.chunk_size === undefined ? Math.max(1, fileSize) : Number(body.chunk_size)
      checkChunking(fileSize, chunkSize)
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const asset = await uploadAsset(caller, ref, undefined, trx)
        if (asset.status !== 'live' && asset.status !== 'paused' && asset.status !== 'error') {
          throw new ApiError('asset_status_conflict', `Content cannot be replaced since the asset's status is ${asset.status}.`)
        }
        const open = await uploads.findOpen(caller.accountId, asset.id, 'replacement', trx)
        if (open !== undefined) throw new ApiError('asset_status_conflict', 'The asset is already being replaced. The replacement status is uploading.')
        const now = storedTime(clock.now())
        await uploads.insert({
          id: hexId(), account_id: caller.accountId, asset_id: asset.id, kind: 'replacement', state: 'uploading',
          file_name: body.file_name, file_size: fileSize, chunk_size: chunkSize, chunk_count: chunkCount(fileSize, chunkSize),
          original_key: null, created_at: now, updated_at: now
        }, trx)
        return { status: 'uploading', file_name: body.file_name, file_size: fileSize, chunk_size: chunkSize }
      })
    },

    /** `GET source_file_info`: the uploaded original, and what the probe found once processing ran. */
    async sourceFileInfo (caller: Caller, ref: string): Promise<SourceFileInfo> {
      const asset = await uploadAsset(caller, ref, undefined)
      const probe = asset.source_probe === null ? {} : JSON.parse(asset.source_probe) as Record<string, unknown>
      const streams = asset.stream_urls === null ? {} : JSON.parse(asset.stream_urls) as Record<string, string | null>
      return {
        ...probe,
        original_file_name: asset.original_file_name,
        source_file_url: typeof streams.source_file === 'string' ? signOriginal(streams.source_file) : null,
        file_size: asset.file_size === null ? null : Number(asset.file_size)
      }
    },

    /**
     * A chunk PUT (public: the URL is the credential). The body streams to the store with its expected
     * length: a body of another size stores nothing and records the chunk as bad.
     */
    async receiveChunk (params: { asset_id: string, upload_id: string, chunk: string }, query: ChunkQuery, body: Readable, contentLength: number | undefined): Promise<ChunkReceipt> {
      const index = chunkIndexOf(params.chunk)
      const range = /^(\d{1,16})-(\d{1,16})$/.exec(query.range ?? '')
      const expires = /^\d{1,12}$/.test(query.expires ?? '') ? Number(query.expires) : undefined
      if (index === undefined || range === null || expires === undefined || query.signature === undefined) {
        throw new ApiError('chunk_url_invalid', 'This is not a chunk URL: use the URLs of uploading_urls as given.')
      }
      const fields = { assetId: params.asset_id, uploadId: params.upload_id, index, start: Number(range[1]), end: Number(range[2]), expires }
      if (!signer.verify(fields, query.signature)) throw new ApiError('chunk_url_invalid', 'The chunk URL\'s signature does not match it: use the URLs of uploading_urls as given.')
      if (expires * 1000 <= clock.now()) throw new ApiError('chunk_url_expired', 'The chunk URL has expired: ask for uploading_urls again (chunks already received stay).')
      const upload = await findUploadOfChunkUrl(database.db, params.asset_id, params.upload_id)
      if (upload === undefined) throw new ApiError('upload_not_found', 'The upload of this chunk URL no longer exists.')
      if (upload.state !== 'uploading') throw new ApiError('upload_closed', `The upload of this chunk URL is ${upload.state === 'uploaded' ? 'complete' : 'abandoned'}; it takes no more chunks.`)
      const expected = chunkRange(Number(upload.file_size), Number(upload.chunk_size), index)
      if (index >= upload.chunk_count || expected.start !== fields.start || expected.end !== fields.end) {
        throw new ApiError('chunk_url_invalid', 'The chunk URL names no chunk of this upload.')
      }
      const size = expected.end - expected.start + 1
      const name = chunkName(index)
      const record = async (state: 'good' | 'bad', received: number): Promise<void> => {
        await uploads.recordChunk(upload.account_id, upload.id, index, state, received, storedTime(clock.now()))
      }
      const mismatch = async (received: number, over: boolean): Promise<never> => {
        await record('bad', received)
        throw new ApiError('chunk_size_mismatch', `Chunk ${name} covers bytes ${expected.start}-${expected.end} (${size} bytes) but its body had ${over ? 'more' : received}; it is recorded as bad: send it again.`,
          { bad_chunks: [name] }, over ? { Connection: 'close' } : undefined)
      }
      // A declared length that cannot fit is refused before a byte is read.
      if (contentLength !== undefined && contentLength !== size) await mismatch(contentLength, contentLength > size)
      // The chunk's bytes are written where the last PUT's were: until this one completes, it is not good.
      await uploads.unmarkGood(upload.account_id, upload.id, index)
      try {
        await mediaStore.putPart(partsOf(upload), { index, offset: expected.start, length: size }, body)
      } catch (error) {
        if (error instanceof MediaSizeMismatchError) await mismatch(error.received, error.received > size)
        // The client went away mid-chunk: nobody is left to read a 5xx.
        if (body.readableAborted || body.destroyed) throw new ApiError('bad_request', `The connection closed before chunk ${name} was complete; send it again.`)
        throw error
      }
      await record('good', size)
      return { chunk: name, size }
    }
  }
}

export type UploadsService = ReturnType<typeof createUploadsService>
