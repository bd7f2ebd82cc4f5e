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
}

export interface ServedFilesDeps {
  store: MediaStore
  /** The process's read cache (none when READ_CACHE_BYTES=0): the facts of immutable files, dropped with their asset. */
  cache: ReadCache | undefined
  redirect: 'proxy' | 'presigned'
}

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
