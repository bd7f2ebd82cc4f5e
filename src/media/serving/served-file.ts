import type { FastifyReply, FastifyRequest } from 'fastify'
import { Readable } from 'node:stream'
import { LRUCache } from 'lru-cache'
import type { ReadCache } from '../../db/index.ts'
import { ApiError } from '../../errors/index.ts'
import {
  contentRange, InvalidRangeError, MediaNotFoundError, parseRangeHeader, RangeNotSatisfiableError, resolveRange,
  type MediaObjectInfo, type MediaStore
} from '../store/index.ts'
import { notModified, rangeStillApplies } from './conditional.ts'
import { fileHeaders, sendFileBody } from './file-lane.ts'
import type { ServedAsset } from './media-access.ts'

/** How one media file is answered. */
export interface FileAnswer {
  key: string
  cacheControl: string
  /** The type the route knows (a segment, a playlist); else the stored one. */
  contentType?: string
  /**
   * The key is written once and never again (a segment, an original): its size, type and validators are
   * kept once described, under the asset, so later requests skip the store's description.
   */
  immutable: boolean
  /** Sent as `Content-Disposition` (the original's download name). */
  disposition?: string
  /** With MEDIA_REDIRECT=presigned: answered by a redirect to the bucket (not playlists, whose relative URIs must stay ours). */
  redirectable: boolean
  /**
   * A small text file (a rendition's media playlist): read whole, and once it is final (`#EXT-X-ENDLIST`:
   * it will never be written again) its answer is kept in memory under the asset and served from there.
   */
  playlist?: boolean
}

/** A final media playlist's answer, kept in the read cache under its asset (the body counted in its budget). */
interface KeptPlaylist {
  body: Buffer
  info: MediaObjectInfo
}

export interface ServedFilesDeps {
  store: MediaStore
  /** The process's read cache (none when READ_CACHE_BYTES=0): the facts of immutable files, dropped with their asset. */
  cache: ReadCache | undefined
  redirect: 'proxy' | 'presigned'
  /**
   * MEDIA_FILE_LANE: `true` (default) sends a file's 200 and 206 bodies straight to the socket once all
   * else is decided (src/media/serving/file-lane.ts); `false` sends them through Fastify's reply, as
   * every other answer is. Both answer the same; the test of that compares them.
   */
  lane: boolean
}

/** The tag that ends a VOD media playlist: nothing is appended to it afterwards. */
const FINAL_PLAYLIST = Buffer.from('#EXT-X-ENDLIST')

/** A pre-signed URL lives an hour and is handed out while at least half of it remains. */
const PRESIGNED_SECONDS = 3600
/** How long a client or CDN may keep a redirect of an immutable file: well inside the URL's remaining life. */
const REDIRECT_MAX_AGE = 'public, max-age=600'

function common (cacheControl: string): Record<string, string> {
  return { 'access-control-allow-origin': '*', 'cache-control': cacheControl, 'x-content-type-options': 'nosniff', 'accept-ranges': 'bytes' }
}

function notFound (): ApiError {
  return new ApiError('media_not_found', 'No media is served at this URL.')
}

function unsatisfiable (header: string | undefined, size: number): ApiError {
  return new ApiError('range_not_satisfiable', `The range ${String(header)} lies outside the file.`, undefined, { 'Content-Range': `bytes */${size}` })
}

/**
 * Answers media files (docs/media.md, "Serving"): GET streams the file or its one byte range, HEAD and
 * revalidations answer from the file's description without reading it, and with MEDIA_REDIRECT=presigned
 * a file is a redirect to a pre-signed URL of the bucket.
 */
export function servedFiles (deps: ServedFilesDeps) {
  const { store, cache } = deps
  const presigned = new LRUCache<string, { url: string, until: number }>({ max: 10_000 })

  function known (key: string): MediaObjectInfo | undefined {
    return cache?.get(`media-file\u0000${key}`) as MediaObjectInfo | undefined
  }

  function remember (asset: ServedAsset, info: MediaObjectInfo, epoch: number): void {
    const facts: MediaObjectInfo = { key: info.key, size: info.size, contentType: info.contentType, etag: info.etag, lastModified: info.lastModified }
    cache?.set(`media-file\u0000${info.key}`, epoch, { accountId: asset.accountId, table: 'assets', id: asset.assetId, value: facts })
  }

  function keptPlaylist (key: string): KeptPlaylist | undefined {
    return cache?.get(`media-playlist\u0000${key}`) as KeptPlaylist | undefined
  }

  /** Reads a playlist whole; keeps its answer when it is final (an EVENT playlist still grows: read every time). */
  async function readPlaylist (asset: ServedAsset, answer: FileAnswer, epoch: number): Promise<KeptPlaylist> {
    let object
    try {
      object = await store.get(answer.key, answer.contentType === undefined ? {} : { contentType: answer.contentType })
    } catch (error) {
      if (error instanceof MediaNotFoundError) throw notFound()
      throw error
    }
    const chunks: Buffer[] = []
    for await (const chunk of object.body) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const info: MediaObjectInfo = { key: object.key, size: body.length, contentType: object.contentType, etag: object.etag, lastModified: object.lastModified }
    const kept: KeptPlaylist = { body, info }
    if (cache !== undefined && body.includes(FINAL_PLAYLIST)) {
      const key = `media-playlist\u0000${answer.key}`
      cache.set(key, epoch, { accountId: asset.accountId, table: 'assets', id: asset.assetId, value: kept })
      cache.chargeDerived(kept, key, body.length)
    }
    return kept
  }

  /** A playlist's answer from its bytes in memory: 200, 206, 304, 416 or HEAD, as a file's would be. */
  async function sendPlaylist (asset: ServedAsset, req: FastifyRequest, reply: FastifyReply, answer: FileAnswer): Promise<FastifyReply> {
    const { body, info } = keptPlaylist(answer.key) ?? await readPlaylist(asset, answer, cache?.epoch ?? 0)
    const header = req.headers.range
    let wanted = parseRangeHeader(header)
    if (wanted !== undefined && !rangeStillApplies(req.headers, info)) wanted = undefined
    const range = wanted === undefined ? undefined : resolveRange(wanted, info.size)
    if (range === null) throw unsatisfiable(header, info.size)
    found(reply, answer, info)
    const head = req.method === 'HEAD'
    if (notModified(req.headers, info)) return await reply.code(304).send(head ? Readable.from([]) : undefined)
    reply.type(answer.contentType ?? info.contentType)
    if (range !== undefined) reply.code(206).header('content-range', contentRange(range, info.size))
    const bytes = range === undefined ? body : body.subarray(range.start, range.end + 1)
    // HEAD: an empty stream with the length the GET would send (Fastify would otherwise say 0).
    if (head) return await reply.header('content-length', bytes.length).send(Readable.from([]))
    return await reply.send(bytes)
  }

  async function describe (key: string): Promise<MediaObjectInfo> {
    try {
      return await store.head(key)
    } catch (error) {
      if (error instanceof MediaNotFoundError) throw notFound()
      throw error
    }
  }

  async function redirect (reply: FastifyReply, answer: FileAnswer, type: string | undefined): Promise<FastifyReply> {
    const now = Date.now()
    let signed = presigned.get(answer.key)
    if (signed === undefined || signed.until - now < PRESIGNED_SECONDS * 500) {
      const url = await (store.presignedGet as NonNullable<MediaStore['presignedGet']>)(answer.key, {
        expiresSeconds: PRESIGNED_SECONDS, contentType: type, cacheControl: answer.cacheControl, contentDisposition: answer.disposition
      })
      signed = { url, until: now + PRESIGNED_SECONDS * 1000 }
      presigned.set(answer.key, signed)
    }
    return await reply.code(302).headers({
      'access-control-allow-origin': '*',
      'cache-control': answer.immutable && !answer.cacheControl.startsWith('private') ? REDIRECT_MAX_AGE : answer.cacheControl,
      location: signed.url
    }).send()
  }

  return async function sendFile (asset: ServedAsset, req: FastifyRequest, reply: FastifyReply, answer: FileAnswer): Promise<FastifyReply> {
    if (answer.playlist === true) return await sendPlaylist(asset, req, reply, answer)
    const epoch = cache?.epoch ?? 0
    let facts = answer.immutable ? known(answer.key) : undefined
    if (deps.redirect === 'presigned' && answer.redirectable && store.presignedGet !== undefined) return await redirect(reply, answer, answer.contentType ?? facts?.contentType)
    const header = req.headers.range
    // A header we do not read as one byte range (several ranges, other units) is ignored: the whole file (RFC 9110 §14.2).
    let wanted = parseRangeHeader(header)
    if (wanted !== undefined && req.headers['if-range'] !== undefined) {
      facts ??= await describe(answer.key)
      if (!rangeStillApplies(req.headers, facts)) wanted = undefined
    }

    if (req.method === 'HEAD') {
      const info = facts ?? await describe(answer.key)
      if (answer.immutable && facts === undefined) remember(asset, info, epoch)
      const range = wanted === undefined ? undefined : resolveRange(wanted, info.size)
      if (range === null) throw unsatisfiable(header, info.size)
      found(reply, answer, info)
      // An empty stream, not nothing: Fastify's HEAD route would otherwise say `Content-Length: 0`.
      if (notModified(req.headers, info)) return await reply.code(304).send(Readable.from([]))
      reply.type(answer.contentType ?? info.contentType)
      if (range === undefined) return await reply.header('content-length', info.size).send(Readable.from([]))
      return await reply.code(206).headers({ 'content-range': contentRange(range, info.size), 'content-length': range.end - range.start + 1 }).send(Readable.from([]))
    }

    // A revalidation of a file described before is answered without touching the store.
    if (facts !== undefined && notModified(req.headers, facts)) {
      found(reply, answer, facts)
      return await reply.code(304).send()
    }
    let object
    try {
      object = await store.get(answer.key, {
        ...(wanted === undefined ? {} : { range: wanted }),
        ...(facts === undefined ? {} : { known: facts }),
        ...(answer.contentType === undefined ? {} : { contentType: answer.contentType })
      })
    } catch (error) {
      if (error instanceof MediaNotFoundError) throw notFound()
      if (error instanceof RangeNotSatisfiableError) throw unsatisfiable(header, error.size)
      if (error instanceof InvalidRangeError) throw notFound()
      throw error
    }
    if (answer.immutable && facts === undefined) remember(asset, object, epoch)
    if (deps.lane && !notModified(req.headers, object)) {
      const head = { cacheControl: answer.cacheControl, disposition: answer.disposition, contentType: answer.contentType ?? object.contentType }
      // A kept description's headers are built once; a fresh one's for this answer.
      await sendFileBody(reply, object.contentRange === undefined ? 200 : 206, fileHeaders(facts ?? object, head), object.contentLength, object.contentRange, object.body)
      return reply
    }
    found(reply, answer, object)
    if (notModified(req.headers, object)) {
      object.body.destroy()
      return await reply.code(304).send()
    }
    reply.type(answer.contentType ?? object.contentType).header('content-length', object.contentLength)
    if (object.contentRange !== undefined) reply.code(206).header('content-range', object.contentRange)
    return await reply.send(object.body)
  }
}

/**
 * The headers of an answer about a file that exists (200, 206, 304, HEAD): its caching, CORS, and its
 * validators. Never on errors: a 404 of a segment not yet written must not be kept for a year.
 */
function found (reply: FastifyReply, answer: FileAnswer, info: MediaObjectInfo): void {
  reply.headers(common(answer.cacheControl))
  if (answer.disposition !== undefined) reply.header('content-disposition', answer.disposition)
  if (info.etag !== undefined) reply.header('etag', info.etag)
  if (info.lastModified !== undefined) reply.header('last-modified', info.lastModified.toUTCString())
}

export { common as commonMediaHeaders }
