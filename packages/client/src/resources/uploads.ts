import { BadRequestError, ConflictError, ReelhouseError } from '../core/errors.ts'
import { retryPolicy } from '../core/retry.ts'
import type { RequestOptions } from '../core/transport.ts'
import type { Asset, AssetCreateParams } from '../generated/assets.ts'
import type { ProcessAnswer, ProcessParams, Replacement, SourceFileInfo, UploadStatus } from '../generated/uploads.ts'
import { segment, type Endpoint } from './endpoint.ts'

/**
 * What an upload reads: a `Blob` or `File` (each chunk is a slice, so an interrupted upload resumes and a
 * chunk can be sent again), or a stream of known size, read once and in order (it cannot be resumed).
 * In Node, `fs.openAsBlob(path)` gives a Blob backed by the file, never read whole into memory.
 */
export type UploadSource = Blob | { stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>, size: number }

export interface UploadProgress {
  /** Bytes the server has, counting chunks it had before this call. */
  sentBytes: number
  totalBytes: number
  chunksDone: number
  chunkCount: number
}

export interface UploadOptions {
  /** The asset's name; default the file name. */
  name?: string
  /** The file name the server records (`original_file_name`); default `File.name`, else `upload`. */
  fileName?: string
  /** Default `video`. */
  assetType?: 'video' | 'audio' | 'ad'
  /** Other fields of the new asset (description, external_id, post_processing_status, …). */
  fields?: Omit<AssetCreateParams, 'asset_type' | 'name' | 'file_name' | 'file_size' | 'chunk_size'>
  /** Bytes per chunk; default 8 MiB. */
  chunkSize?: number
  /** Chunks in flight at once; default 4. */
  concurrency?: number
  /** Continue the upload of this asset: only the chunks the server lacks are sent. */
  assetId?: string
  /** Called once the asset exists, before any chunk is sent: remember its id to resume later. */
  onAsset?: (asset: Asset) => void
  onProgress?: (progress: UploadProgress) => void
  signal?: AbortSignal
}

export interface WaitOptions {
  /** Between two reads of the asset, in ms; default 2,000. */
  interval?: number
  /** Give up after this many ms; default: never. */
  timeout?: number
  /** Sees the asset at each read (`status`, `processing_progress`, `processing`). */
  onPoll?: (asset: Asset) => void
  /** `playable` (default): return once the asset is live or paused; `ready`: once its whole ladder is made too. */
  until?: 'playable' | 'ready'
  signal?: AbortSignal
}

const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024
const PATH = '/v2/assets'
/** Rounds of re-sending the chunks the server names after the last one was sent. */
const COMPLETION_ROUNDS = 3

interface Chunk { name: string, url: string, start: number, end: number }

/**
 * Uploads over the chunk URLs of the server (docs/uploads.md): the chunks go in parallel, unsigned, to
 * the URLs `uploading_urls` gives; `upload_status` completes the upload, and names any chunk to send again.
 */
export class AssetUploads {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  /**
   * Creates an asset for `source` (or continues `options.assetId`), uploads it and completes the upload;
   * resolves with the asset, now `processing`. Resumable: run it again with `assetId` and only the
   * missing chunks are sent.
   * @example
   * const asset = await client.assets.upload(new Blob([bytes]), { name: 'Trailer', fileName: 'trailer.mp4', chunkSize: 1024 * 1024 })
   * const live = await client.assets.waitUntilProcessed(asset.embed_code)
   */
  async upload (source: UploadSource, options: UploadOptions = {}): Promise<Asset> {
    const size = sizeOf(source)
    const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE
    const call = { signal: options.signal }
    let asset: Asset
    if (options.assetId === undefined) {
      const fileName = options.fileName ?? fileNameOf(source)
      asset = await this.#api.post<Asset>(PATH, {
        ...options.fields, asset_type: options.assetType ?? 'video', name: options.name ?? fileName, file_name: fileName, file_size: size, chunk_size: chunkSize
      }, call)
    } else {
      asset = await this.#api.get<Asset>(`${PATH}/${segment(options.assetId)}`, { ...call, cache: false })
    }
    options.onAsset?.(asset)
    await this.#transfer(asset.embed_code, '', source, options, options.assetId !== undefined)
    return await this.#api.get<Asset>(`${PATH}/${segment(asset.embed_code)}`, { ...call, cache: false })
  }

  /**
   * Replaces the media of a processed asset with `source`; the asset stays on its old media until the
   * new one is processed. A replacement already uploading is continued.
   */
  async replaceMedia (id: string, source: UploadSource, options: Omit<UploadOptions, 'assetId' | 'assetType' | 'fields' | 'name'> = {}): Promise<void> {
    const size = sizeOf(source)
    let resume = false
    try {
      await this.#api.post<Replacement>(`${PATH}/${segment(id)}/replacement`, {
        file_name: options.fileName ?? fileNameOf(source), file_size: size, chunk_size: options.chunkSize ?? DEFAULT_CHUNK_SIZE
      }, { signal: options.signal })
    } catch (error) {
      if (!(error instanceof ConflictError && /already being replaced/.test(error.message))) throw error
      resume = true
    }
    await this.#transfer(id, 'replacement/', source, options, resume)
  }

  /** `PUT upload_status {"status":"failed"}`: abandons the upload (or, with `replacement`, the replacement). */
  async abandon (id: string, options: RequestOptions & { replacement?: boolean } = {}): Promise<UploadStatus> {
    return await this.#api.put(`${PATH}/${segment(id)}/${options.replacement === true ? 'replacement/' : ''}upload_status`, { status: 'failed' }, options)
  }

  /** The chunk URLs of the asset's upload (or replacement), fresh ones at each call. */
  async chunkUrls (id: string, options: RequestOptions & { replacement?: boolean } = {}): Promise<string[]> {
    return await this.#api.get(`${PATH}/${segment(id)}/${options.replacement === true ? 'replacement/' : ''}uploading_urls`, { ...options, cache: false })
  }

  /** `POST process`: processes an uploaded original again after a failure (profile `default`). */
  async process (id: string, params: ProcessParams = { initiation_type: 'original_ingest' }, options?: RequestOptions): Promise<ProcessAnswer> {
    return await this.#api.post(`${PATH}/${segment(id)}/process`, params, options)
  }

  async sourceFileInfo (id: string, options?: RequestOptions): Promise<SourceFileInfo> {
    return await this.#api.get(`${PATH}/${segment(id)}/source_file_info`, options)
  }

  /**
   * Reads the asset until processing is over: resolves with it once `live` or `paused`, throws a
   * `ReelhouseError` when it ends in `error` or the timeout passes.
   * @example const asset = await client.assets.waitUntilProcessed(id, { onPoll: (a) => console.log(a.status) })
   */
  async waitUntilProcessed (id: string, options: WaitOptions = {}): Promise<Asset> {
    const started = Date.now()
    for (;;) {
      const asset = await this.#api.get<Asset>(`${PATH}/${segment(id)}`, { signal: options.signal, cache: false })
      options.onPoll?.(asset)
      const playable = asset.status === 'live' || asset.status === 'paused'
      if (playable && (options.until !== 'ready' || (asset.processing_progress ?? 100) >= 100)) return asset
      if (asset.status === 'error') throw new ReelhouseError(`Processing of asset ${id} failed${reasonOf(asset)}.`)
      if (asset.status === 'uploading') throw new ReelhouseError(`Asset ${id} is still uploading: complete its upload first.`)
      if (options.timeout !== undefined && Date.now() - started >= options.timeout) {
        throw new ReelhouseError(`Asset ${id} was still ${asset.status} after ${options.timeout} ms.`)
      }
      await pause(options.interval ?? 2000, options.signal)
    }
  }

  /** Sends what the server lacks, then completes the upload, sending again what it names. */
  async #transfer (id: string, prefix: string, source: UploadSource, options: UploadOptions, resume: boolean): Promise<void> {
    const base = `${PATH}/${segment(id)}/${prefix}`
    const call = { signal: options.signal }
    let wanted: Set<string> | undefined
    if (resume) {
      // Asked first: an upload that was complete already is not waiting for chunks any more.
      wanted = await this.#outstanding(base, call)
      if (wanted.size === 0) return
    }
    const chunks = (await this.#api.get<string[]>(`${base}uploading_urls`, { ...call, cache: false })).map(chunkOf)
    const size = sizeOf(source)
    const progress = { sentBytes: 0, totalBytes: size, chunksDone: 0, chunkCount: chunks.length }
    for (const chunk of chunks) {
      if (wanted !== undefined && !wanted.has(chunk.name)) {
        progress.sentBytes += chunk.end - chunk.start + 1
        progress.chunksDone += 1
      }
    }
    options.onProgress?.({ ...progress })
    let todo = wanted
    for (let round = 0; ; round++) {
      const names = todo
      await this.#sendAll(source, chunks, (chunk) => names === undefined || names.has(chunk.name), options, progress)
      const left = await this.#outstanding(base, call)
      if (left.size === 0) return
      if (round + 1 >= COMPLETION_ROUNDS || !(source instanceof Blob)) {
        throw new ReelhouseError(`The server still lacks ${[...left].join(', ')} of asset ${id}'s upload.`)
      }
      todo = left
    }
  }

  /** Completes the upload if it can: the names of the chunks still to send (none once complete). */
  async #outstanding (base: string, call: RequestOptions): Promise<Set<string>> {
    try {
      await this.#api.put<UploadStatus>(`${base}upload_status`, { status: 'uploaded' }, call)
      return new Set()
    } catch (error) {
      if (!(error instanceof BadRequestError) || error.code !== 'upload_incomplete') throw error
      return new Set([...error.missingChunks ?? [], ...error.badChunks ?? []])
    }
  }

  /** PUTs the chunks, at most `concurrency` at once, in file order. */
  async #sendAll (source: UploadSource, chunks: Chunk[], wanted: (chunk: Chunk) => boolean, options: UploadOptions, progress: UploadProgress): Promise<void> {
    const limit = Math.max(1, options.concurrency ?? 4)
    const running = new Set<Promise<void>>()
    let failure: unknown
    for await (const [chunk, body] of bodies(source, chunks, wanted)) {
      if (failure !== undefined) break
      const sending = this.#api.transport.sendUnsigned(chunk.url, { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream' } }, retryPolicy('PUT', undefined), { signal: options.signal })
        .then(() => {
          progress.sentBytes += chunk.end - chunk.start + 1
          progress.chunksDone += 1
          options.onProgress?.({ ...progress })
        }, (error: unknown) => { failure ??= error })
        .finally(() => { running.delete(sending) })
      running.add(sending)
      if (running.size >= limit) await Promise.race(running)
    }
    await Promise.all(running)
    if (failure !== undefined) throw failure
  }
}

/** The body of each wanted chunk: a slice of a Blob, or the next bytes of a stream (unwanted chunks are read past). */
async function * bodies (source: UploadSource, all: Chunk[], wanted: (chunk: Chunk) => boolean): AsyncGenerator<[Chunk, Blob | Uint8Array<ArrayBuffer>]> {
  if (source instanceof Blob) {
    for (const chunk of all) if (wanted(chunk)) yield [chunk, source.slice(chunk.start, chunk.end + 1)]
    return
  }
  let index = 0
  let parts: Uint8Array[] = []
  let have = 0
  for await (const piece of source.stream as AsyncIterable<Uint8Array>) {
    let rest = piece
    while (rest.length > 0 && index < all.length) {
      const chunk = all[index] as Chunk
      const length = chunk.end - chunk.start + 1
      const take = Math.min(length - have, rest.length)
      if (wanted(chunk)) parts.push(rest.subarray(0, take))
      have += take
      rest = rest.subarray(take)
      if (have === length) {
        if (wanted(chunk)) yield [chunk, concat(parts, have)]
        parts = []
        have = 0
        index += 1
      }
    }
  }
  if (index < all.length) throw new ReelhouseError('The stream ended before the size it was given.')
}

function concat (parts: Uint8Array[], length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length)
  let at = 0
  for (const part of parts) { out.set(part, at); at += part.length }
  return out
}

function chunkOf (url: string): Chunk {
  const parsed = new URL(url)
  const name = /chunk-\d{6}/.exec(parsed.pathname)?.[0]
  const range = /^(\d+)-(\d+)$/.exec(parsed.searchParams.get('range') ?? '')
  if (name === undefined || range === null) throw new ReelhouseError(`Not a chunk URL: ${parsed.origin}${parsed.pathname}`)
  return { name, url, start: Number(range[1]), end: Number(range[2]) }
}

function sizeOf (source: UploadSource): number {
  return source instanceof Blob ? source.size : source.size
}

function fileNameOf (source: UploadSource): string {
  const name = (source as { name?: unknown }).name
  return typeof name === 'string' && name !== '' ? name : 'upload'
}

function reasonOf (asset: Asset): string {
  const reason = (asset as { processing_error?: unknown, error_reason?: unknown }).processing_error ?? (asset as { error_reason?: unknown }).error_reason
  return typeof reason === 'string' && reason !== '' ? `: ${reason}` : ''
}

function pause (ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) { reject(new ReelhouseError('The wait was aborted.')); return }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', stop); resolve() }, ms)
    const stop = (): void => { clearTimeout(timer); reject(new ReelhouseError('The wait was aborted.')) }
    signal?.addEventListener('abort', stop, { once: true })
  })
}
