import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ApiError } from '../../errors/index.ts'
import { Problem } from '../../http/schemas.ts'
import { hash } from 'node:crypto'
import type { ReadCache } from '../../db/index.ts'
import { CONTENT_TYPES, MASTER_FILE, PREVIEW_FILE, MediaNotFoundError, mediaPrefix, type MediaStore } from '../store/index.ts'
import { notModified } from './conditional.ts'
import { decide, type ServedAsset } from './media-access.ts'
import { commonMediaHeaders, servedFiles } from './served-file.ts'

/** The asset a media token names: its account, id, the version it serves and its original. */
type ServedMediaLookup = (token: string) => Promise<ServedAsset | undefined>

export interface MediaRoutesDeps {
  store: MediaStore
  lookup: ServedMediaLookup
  /** The process's read cache, for the facts of immutable files (none when READ_CACHE_BYTES=0). */
  cache?: ReadCache
  /** MEDIA_REDIRECT: `presigned` redirects files (not playlists) to pre-signed URLs of an S3 store. */
  redirect?: 'proxy' | 'presigned'
  /** An asset's caption track as WebVTT, by language (any form of the tag); undefined when it has none. */
  captionTrack?: (accountId: string, assetId: string, language: string) => Promise<string | undefined>
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
const NOT_MODIFIED = Type.Unknown({ description: 'Unchanged since the validator the request names (`If-None-Match`, `If-Modified-Since`): no body' })
const FILE_ANSWER = {
  200: Type.Unknown({ description: 'The file' }),
  206: Type.Unknown({ description: 'The requested byte range of the file' }),
  302: Type.Unknown({ description: 'With MEDIA_REDIRECT=presigned: a redirect (`Location`) to a pre-signed URL of the bucket' }),
  304: NOT_MODIFIED,
  404: Problem,
  416: Problem
}

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
export const mediaRoutes: FastifyPluginAsyncTypebox<MediaRoutesDeps> = async (app, { store, lookup, cache, redirect, captionTrack }) => {
  if (redirect === 'presigned' && store.presignedGet === undefined) throw new Error('MEDIA_REDIRECT=presigned needs an S3 media store')
  // `media`: the pipeline gives these routes only the steps a public file needs (docs/media.md, "The request path").
  const config = { public: true, ownCacheHeaders: true, media: true } as const
  const tags = ['media']
  const errors = { 404: Problem }
  const sendFile = servedFiles({ store, cache, redirect: redirect ?? 'proxy' })

  app.get('/media/:token/master.m3u8', {
    config,
    schema: {
      operationId: 'getMasterPlaylist',
      summary: 'Get an asset\'s HLS master playlist',
      description: 'The `iphone` and `ipad` stream URL of a processed asset: the HLS master playlist of the renditions ready so far, lowest first. Public (the token is the credential); it follows the asset\'s current media, so it is cached briefly.',
      tags,
      params: Type.Object({ token: TOKEN }),
      response: { 200: Type.String({ description: 'The master playlist (application/vnd.apple.mpegurl)' }), 304: NOT_MODIFIED, ...errors }
    }
  }, async (req, reply) => {
    const media = decide(await lookup(req.params.token), { what: 'master' }, req)
    const version = media.version as string
    const object = await getOr404(store, `${mediaPrefix(media.accountId, media.assetId, version)}${MASTER_FILE}`)
    const text = await readText(object.body)
    // The stored master names its renditions relative to the version folder; the served one sits above it.
    const rewritten = text.split('\n').map((line) => line === '' || line.startsWith('#') ? line : `${version}/${line}`).join('\n')
    // The validator of what is sent, so a revalidation is never answered from a master that changed.
    const etag = `"${hash('sha1', rewritten, 'base64url').slice(0, 22)}"`
    reply.headers(commonMediaHeaders(FOLLOWS_VERSION)).header('etag', etag)
    if (notModified(req.headers, { etag, lastModified: undefined })) return await reply.code(304).send()
    return await reply.type(CONTENT_TYPES.playlist).send(rewritten)
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
    const media = decide(await lookup(req.params.token), { what: 'preview' }, req)
    const key = `${mediaPrefix(media.accountId, media.assetId, media.version as string)}${PREVIEW_FILE}`
    return await sendFile(media, req, reply, { key, cacheControl: FOLLOWS_VERSION, contentType: CONTENT_TYPES.preview, immutable: false, redirectable: true })
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
    const media = decide(await lookup(req.params.token), { what: 'source' }, req)
    const name = (media.originalFileName ?? 'source').replace(/[^\w.-]/g, '_')
    // An original's key is new for every upload: it is never written twice.
    return await sendFile(media, req, reply, { key: media.originalKey as string, cacheControl: FOLLOWS_VERSION, immutable: true, disposition: `attachment; filename="${name}"`, redirectable: true })
  })

  app.get('/media/:token/captions/:language/track.vtt', {
    config,
    schema: {
      operationId: 'getCaptionTrackFile',
      summary: 'Get an asset\'s caption track as WebVTT',
      description: 'A caption track\'s `url`: the track in the language as WebVTT, for players (`<track src>`, hls.js). Public like the other media files (the token is the credential), served once the asset\'s media is; it follows the asset\'s tracks, so it is cached briefly.',
      tags,
      params: Type.Object({ token: TOKEN, language: Type.String({ maxLength: 35, description: 'The track\'s BCP 47 language tag', examples: ['en'] }) }),
      response: { 200: Type.String({ description: 'The track (text/vtt)' }), 304: NOT_MODIFIED, ...errors }
    }
  }, async (req, reply) => {
    const media = decide(await lookup(req.params.token), { what: 'captions' }, req)
    const text = await captionTrack?.(media.accountId, media.assetId, req.params.language)
    if (text === undefined) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const etag = `"${hash('sha1', text, 'base64url').slice(0, 22)}"`
    reply.headers(commonMediaHeaders(FOLLOWS_VERSION)).header('etag', etag)
    if (notModified(req.headers, { etag, lastModified: undefined })) return await reply.code(304).send()
    return await reply.type('text/vtt; charset=utf-8').send(text)
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
    const media = decide(await lookup(token), { what: 'rendition', version }, req)
    const segment = file.endsWith('.ts')
    return await sendFile(media, req, reply, {
      key: `${mediaPrefix(media.accountId, media.assetId, version)}${rendition}/${file}`,
      cacheControl: segment ? IMMUTABLE : GROWS,
      contentType: segment ? CONTENT_TYPES.segment : CONTENT_TYPES.playlist,
      // A segment is written once; a playlist may be written again (a growing one), so it is described every time.
      immutable: segment,
      redirectable: segment
    })
  })
}

async function getOr404 (store: MediaStore, key: string): Promise<Awaited<ReturnType<MediaStore['get']>>> {
  try {
    return await store.get(key)
  } catch (error) {
    if (error instanceof MediaNotFoundError) throw new ApiError('media_not_found', 'No media is served at this URL.')
    throw error
  }
}

async function readText (body: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}
