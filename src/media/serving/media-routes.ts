import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { ApiError } from '../../errors/index.ts'
import { Problem } from '../../http/schemas.ts'
import {
  CONTENT_TYPES, MASTER_FILE, PREVIEW_FILE, InvalidRangeError, MediaNotFoundError, mediaPrefix, parseRangeHeader, RangeNotSatisfiableError, type MediaStore
} from '../store/index.ts'

/** The asset a media token names: its account, id, the version it serves and its original. */
interface ServedMediaLookup {
  (token: string): Promise<{ accountId: string, assetId: string, version: string | null, originalKey: string | null, originalFileName: string | null } | undefined>
}

export interface MediaRoutesDeps {
  store: MediaStore
  lookup: ServedMediaLookup
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route sets its own Cache-Control (media files): the cached variant leaves it alone. */
    ownCacheHeaders?: boolean
  }
}

/** Rendition files: the media playlist and its numbered segments, exactly as the engine names them. */
const RENDITION_FILE = /^(index\.m3u8|segment-\d{5}\.ts)$/
const TOKEN = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$', description: 'The asset\'s media token, from its `stream_urls` or `preview_image_url`', examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] })
const VERSION = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$', description: 'The media version, as the master playlist names it', examples: ['q1w2e3r4t5y6u7i8o9p0aa'] })
const RENDITION = Type.String({ pattern: '^[A-Za-z0-9]{1,16}$', description: 'The rendition: 360p, 720p, 1080p, a source-sized one, or audio', examples: ['720p'] })
const FILE = Type.String({ pattern: '^(index\\.m3u8|segment-[0-9]{5}\\.ts)$', description: 'index.m3u8 or segment-NNNNN.ts', examples: ['segment-00000.ts'] })
const FILE_ANSWER = { 200: Type.Unknown({ description: 'The file' }), 206: Type.Unknown({ description: 'The requested byte range of the file' }), 404: Problem, 416: Problem }

/** Immutable: a version's files never change (a new version gets new URLs). */
const IMMUTABLE = 'public, max-age=31536000, immutable'
/**
 * A rendition's media playlist grows while its rendition is made (an EVENT playlist, then VOD under the
 * same URL: docs/media.md, "Growing playlists"), so a cache must ask again every time.
 */
const GROWS = 'no-cache'
/** The master, preview and original follow the asset's current version: a replacement changes them. */
const FOLLOWS_VERSION = 'public, max-age=10'

/**
 * Public media (docs/media.md, "Serving"): no signature, the token in the URL is the credential. Served
 * the same on both listeners (the api's HTTPS, so HTTPS pages play without mixed content, and the cdn's
 * plain HTTP), streamed from the media store with Range requests and `Access-Control-Allow-Origin: *`
 * (hls.js fetches with XHR). Nothing here costs credits.
 */
export const mediaRoutes: FastifyPluginAsyncTypebox<MediaRoutesDeps> = async (app, { store, lookup }) => {
  const config = { public: true, ownCacheHeaders: true } as const
  const tags = ['media']
  const errors = { 404: Problem }

  async function served (token: string): Promise<{ accountId: string, assetId: string, version: string, originalKey: string | null, originalFileName: string | null }> {
    const found = await lookup(token)
    if (found?.version == null) throw new ApiError('media_not_found', 'No media is served at this URL.')
    return { ...found, version: found.version }
  }

  app.get('/media/:token/master.m3u8', {
    config,
    schema: {
      operationId: 'getMasterPlaylist',
      summary: 'Get an asset\'s HLS master playlist',
      description: 'The `iphone` and `ipad` stream URL of a processed asset: the HLS master playlist of the renditions ready so far, lowest first. Public (the token is the credential); it follows the asset\'s current media, so it is cached briefly.',
      tags,
      params: Type.Object({ token: TOKEN }),
      response: { 200: Type.String({ description: 'The master playlist (application/vnd.apple.mpegurl)' }), ...errors }
    }
  }, async (req, reply) => {
    const media = await served(req.params.token)
    const object = await getOr404(store, `${mediaPrefix(media.accountId, media.assetId, media.version)}${MASTER_FILE}`)
    const text = await readText(object.body)
    // The stored master names its renditions relative to the version folder; the served one sits above it.
    const rewritten = text.split('\n').map((line) => line === '' || line.startsWith('#') ? line : `${media.version}/${line}`).join('\n')
    return await reply.headers(common(FOLLOWS_VERSION)).type(CONTENT_TYPES.playlist).send(rewritten)
  })

  app.get('/media/:token/preview.jpg', {
    config,
    schema: {
      operationId: 'getPreviewImage',
      summary: 'Get an asset\'s preview image',
      description: 'The `preview_image_url` of a processed video or ad: a JPEG from about 10 % in, at most 640 pixels wide. Public; Range requests work.',
      tags,
      params: Type.Object({ token: TOKEN }),
      response: FILE_ANSWER
    }
  }, async (req, reply) => {
    const media = await served(req.params.token)
    return await sendObject(store, req, reply, `${mediaPrefix(media.accountId, media.assetId, media.version)}${PREVIEW_FILE}`, FOLLOWS_VERSION)
  })

  app.get('/media/:token/source', {
    config,
    schema: {
      operationId: 'getSourceFile',
      summary: 'Download an asset\'s original file',
      description: 'The `source_file` stream URL: the uploaded original of the media the asset plays, as uploaded. Public; Range requests work.',
      tags,
      params: Type.Object({ token: TOKEN }),
      response: FILE_ANSWER
    }
  }, async (req, reply) => {
    const media = await served(req.params.token)
    if (media.originalKey === null) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const name = (media.originalFileName ?? 'source').replace(/[^\w.-]/g, '_')
    reply.header('content-disposition', `attachment; filename="${name}"`)
    return await sendObject(store, req, reply, media.originalKey, FOLLOWS_VERSION)
  })

  app.get('/media/:token/:version/:rendition/:file', {
    config,
    schema: {
      operationId: 'getRenditionFile',
      summary: 'Get a rendition\'s playlist or segment',
      description: 'A file the master playlist leads to: a rendition\'s HLS media playlist (an EVENT playlist while the rendition is made, then VOD: `no-cache`) or one of its MPEG-TS segments (immutable, cached for a year). Public; Range requests work.',
      tags,
      params: Type.Object({ token: TOKEN, version: VERSION, rendition: RENDITION, file: FILE }),
      response: FILE_ANSWER
    }
  }, async (req, reply) => {
    const { token, version, rendition, file } = req.params
    if (!RENDITION_FILE.test(file)) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const found = await lookup(token)
    if (found === undefined) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const segment = file.endsWith('.ts')
    const key = `${mediaPrefix(found.accountId, found.assetId, version)}${rendition}/${file}`
    return await sendObject(store, req, reply, key, segment ? IMMUTABLE : GROWS, segment ? CONTENT_TYPES.segment : CONTENT_TYPES.playlist)
  })
}

function common (cacheControl: string): Record<string, string> {
  return { 'access-control-allow-origin': '*', 'cache-control': cacheControl, 'x-content-type-options': 'nosniff', 'accept-ranges': 'bytes' }
}

async function getOr404 (store: MediaStore, key: string, range?: string): Promise<Awaited<ReturnType<MediaStore['get']>>> {
  try {
    return await store.get(key, range === undefined ? {} : { range })
  } catch (error) {
    if (error instanceof MediaNotFoundError) throw new ApiError('media_not_found', 'No media is served at this URL.')
    throw error
  }
}

/** Streams a store object, or the one byte range asked for (206); a range past the end is a 416. */
async function sendObject (store: MediaStore, req: FastifyRequest, reply: FastifyReply, key: string, cacheControl: string, contentType?: string): Promise<FastifyReply> {
  reply.headers(common(cacheControl))
  const header = req.headers.range
  // A header we do not read as one byte range (several ranges, other units) is ignored: the whole file (RFC 9110 §14.2).
  const range = parseRangeHeader(header) === undefined ? undefined : header
  let object
  try {
    object = await getOr404(store, key, range)
  } catch (error) {
    if (error instanceof RangeNotSatisfiableError) {
      throw new ApiError('range_not_satisfiable', `The range ${String(header)} lies outside the file.`, undefined, { 'Content-Range': `bytes */${error.size}` })
    }
    if (error instanceof InvalidRangeError) object = await getOr404(store, key)
    else throw error
  }
  reply.type(contentType ?? object.contentType).header('content-length', object.contentLength)
  if (object.etag !== undefined) reply.header('etag', object.etag)
  if (object.contentRange !== undefined) reply.code(206).header('content-range', object.contentRange)
  if (req.method === 'HEAD') {
    object.body.destroy()
    return await reply.send()
  }
  return await reply.send(object.body)
}

async function readText (body: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}
