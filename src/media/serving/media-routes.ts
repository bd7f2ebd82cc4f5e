import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ApiError } from '../../errors/index.ts'
import { Problem } from '../../http/schemas.ts'
import type { FastifyRequest } from 'fastify'
import type { ReadCache } from '../../db/index.ts'
import { CONTENT_TYPES, DOWNLOAD_FILES, PREVIEW_FILE, STORYBOARD_FILE, MediaNotFoundError, mediaPrefix, type MediaStore } from '../store/index.ts'
import { notModified } from './conditional.ts'
import { hash } from 'node:crypto'
import { CLIP_SECONDS_PATTERN, clipQuery, clipRange, cutMediaPlaylist } from './clip.ts'
import { cachedMaster, renderMasterPlaylist, type MasterPlaylistOptions } from './master-playlist.ts'
import { decide, playbackRules, type MediaWanted, type PlaybackRulesDeps, type ServedAsset } from './media-access.ts'
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
  /** MEDIA_FILE_SEND=lane (default): file bodies go straight to the socket once all else is decided (served-file.ts). */
  fileLane?: boolean
  /** Publishing rules: the rule lookup and what the request's viewer is (device, country). */
  rules: PlaybackRulesDeps
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
/** Image folders of a version, each with its own file names: storyboard sheets, generated preview images. */
const IMAGE_FOLDERS: Readonly<Record<string, RegExp>> = { storyboard: /^sprite-\d{5}\.jpg$/, frames: /^frame-\d{5}\.jpg$/ }
const STORYBOARD_FOLDER = 'storyboard'
const TOKEN = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$', description: 'The asset\'s media token, from its `stream_urls` or `preview_image_url`', examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] })
const VERSION = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$', description: 'The media version, as the master playlist names it', examples: ['q1w2e3r4t5y6u7i8o9p0aa'] })
const RENDITION = Type.String({ pattern: '^[A-Za-z0-9]{1,16}$', description: 'The rendition: 360p, 720p, 1080p, a source-sized one, or audio', examples: ['720p'] })
const FILE = Type.String({ pattern: '^(index\\.m3u8|segment-[0-9]{5}\\.ts|sprite-[0-9]{5}\\.jpg|frame-[0-9]{5}\\.jpg)$', description: 'index.m3u8 or segment-NNNNN.ts; sprite-NNNNN.jpg in the storyboard folder, frame-NNNNN.jpg in the frames folder', examples: ['segment-00000.ts'] })
/** An instant clip: `start` and `end` (seconds) cut the playlists to the segments covering the range. */
const ClipQuery = Type.Object({
  start: Type.Optional(Type.String({ pattern: CLIP_SECONDS_PATTERN, description: 'An instant clip\'s start, in seconds (with `end`): the playlists hold only the segments covering the range, no re-encode', examples: ['12.5'] })),
  end: Type.Optional(Type.String({ pattern: CLIP_SECONDS_PATTERN, description: 'An instant clip\'s end, in seconds (with `start`)', examples: ['42'] }))
})
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
/**
 * Media under a publishing rule is answered for one viewer (their time, device, site, country): only the
 * viewer's own cache may keep it, briefly, so a rule's change or a pause reaches it within a minute.
 */
const RULED_FILE = 'private, max-age=60'
const RULED_PLAYLIST = 'private, no-cache'
/** The master, preview and original follow the asset's current version: a replacement changes them. */
const FOLLOWS_VERSION = 'public, max-age=10'

/**
 * Public media (docs/media.md, "Serving"): no signature, the token in the URL is the credential. Served
 * the same on both listeners (the api's HTTPS, so HTTPS pages play without mixed content, and the cdn's
 * plain HTTP), streamed from the media store with Range requests and `Access-Control-Allow-Origin: *`
 * (hls.js fetches with XHR). Nothing here costs credits.
 */
export const mediaRoutes: FastifyPluginAsyncTypebox<MediaRoutesDeps> = async (app, { store, lookup, cache, redirect, fileLane, rules, captionTrack }) => {
  if (redirect === 'presigned' && store.presignedGet === undefined) throw new Error('MEDIA_REDIRECT=presigned needs an S3 media store')
  // `media`: the pipeline gives these routes only the steps a public file needs (docs/media.md, "The request path").
  const config = { public: true, ownCacheHeaders: true, media: true } as const
  const tags = ['media']
  const errors = { 404: Problem }
  const sendFile = servedFiles({ store, cache, redirect: redirect ?? 'proxy', lane: fileLane ?? true })
  const enforce = playbackRules(rules)
  /**
   * The asset a media URL names, once it is playable and its rules allow this request, and whether a rule
   * applies: such an answer is for this viewer only, so no shared cache may keep it.
   */
  async function admitted (token: string, wanted: MediaWanted, req: FastifyRequest): Promise<{ media: ServedAsset, ruled: boolean }> {
    const media = decide(await lookup(token), wanted, req)
    return { media, ruled: await enforce(media, req) }
  }

  app.get('/media/:token/master.m3u8', {
    config,
    schema: {
      operationId: 'getMasterPlaylist',
      summary: 'Get an asset\'s HLS master playlist',
      description: 'The `iphone` and `ipad` stream URL of a processed asset: the HLS master playlist of the renditions whose first segments exist so far, lowest first, rendered from the asset\'s media version. Public (the token is the credential); it follows the asset\'s current media, so it is cached briefly.',
      tags,
      params: Type.Object({ token: TOKEN }),
      querystring: ClipQuery,
      response: { 200: Type.String({ description: 'The master playlist (application/vnd.apple.mpegurl)' }), 304: NOT_MODIFIED, 400: Problem, ...errors }
    }
  }, async (req, reply) => {
    const { media, ruled } = await admitted(req.params.token, { what: 'master' }, req)
    const version = media.version as string
    const { key, options } = masterVariant(media, req)
    const master = cachedMaster(media, key, () => renderMasterPlaylist(media.accountId, media, version, media.renditions, options))
    if (master === null) throw new ApiError('media_not_found', 'No media is served at this URL.')
    // The validator of what is sent, so a revalidation is never answered from a master that changed.
    reply.headers(commonMediaHeaders(ruled ? RULED_PLAYLIST : FOLLOWS_VERSION)).header('etag', master.etag)
    if (notModified(req.headers, { etag: master.etag, lastModified: undefined })) return await reply.code(304).send()
    return await reply.type(CONTENT_TYPES.playlist).send(master.body)
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
    const { media, ruled } = await admitted(req.params.token, { what: 'preview' }, req)
    const key = `${mediaPrefix(media.accountId, media.assetId, media.version as string)}${PREVIEW_FILE}`
    // The stored type: a chosen preview may be a PNG sent by a user (docs/media.md, "Previews").
    return await sendFile(media, req, reply, { key, cacheControl: ruled ? RULED_FILE : FOLLOWS_VERSION, immutable: false, redirectable: true })
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
    const { media, ruled } = await admitted(req.params.token, { what: 'source' }, req)
    const name = (media.originalFileName ?? 'source').replace(/[^\w.-]/g, '_')
    // An original's key is new for every upload: it is never written twice.
    return await sendFile(media, req, reply, { key: media.originalKey as string, cacheControl: ruled ? RULED_FILE : FOLLOWS_VERSION, immutable: true, disposition: `attachment; filename="${name}"`, redirectable: true })
  })

  app.get('/media/:token/storyboard.vtt', {
    config,
    schema: {
      operationId: 'getStoryboard',
      summary: 'Get an asset\'s storyboard',
      description: 'The `storyboard` stream URL of a processed video: a WebVTT file whose cues each point at one thumbnail of a JPEG sprite sheet (`<version>/storyboard/sprite-00000.jpg#xywh=x,y,w,h`), a frame every few seconds. It grows while processing goes on (`no-cache`), sheet by sheet; the sheets themselves are immutable. Public.',
      tags,
      params: Type.Object({ token: TOKEN }),
      response: { 200: Type.String({ description: 'The WebVTT file (text/vtt)' }), 304: NOT_MODIFIED, ...errors }
    }
  }, async (req, reply) => {
    const { media, ruled } = await admitted(req.params.token, { what: 'storyboard' }, req)
    const version = media.version as string
    const text = await readText(store, `${mediaPrefix(media.accountId, media.assetId, version)}${STORYBOARD_FILE}`)
    // The stored file names its sheets relative to the storyboard folder; the served one sits two levels above it.
    const rewritten = text.split('\n').map((line) => line.startsWith('sprite-') ? `${version}/${STORYBOARD_FOLDER}/${line}` : line).join('\n')
    const etag = `"${hash('sha1', rewritten, 'base64url').slice(0, 22)}"`
    reply.headers(commonMediaHeaders(ruled ? RULED_PLAYLIST : GROWS)).header('etag', etag)
    if (notModified(req.headers, { etag, lastModified: undefined })) return await reply.code(304).send()
    return await reply.type(CONTENT_TYPES.storyboard).send(rewritten)
  })

  for (const kind of ['mp4', 'm4a'] as const) {
    app.get(`/media/:token/download.${kind}`, {
      config,
      schema: {
        operationId: kind === 'mp4' ? 'getMp4Download' : 'getM4aDownload',
        summary: kind === 'mp4' ? 'Download an asset as MP4' : 'Download an asset\'s audio as M4A',
        description: kind === 'mp4'
          ? 'The `mp4` stream URL of an asset with `mp4_support: "standard"`: its top rendition up to 1080p in one MP4 file (the HLS segments remuxed, not encoded again), `Content-Disposition: attachment`. Public; Range requests work.'
          : 'The `m4a` stream URL of an asset with `mp4_support: "standard"`: its audio (AAC) in one M4A file, remuxed, `Content-Disposition: attachment`. Public; Range requests work.',
        tags,
        params: Type.Object({ token: TOKEN }),
        response: FILE_ANSWER
      }
    }, async (req, reply) => {
      const { media, ruled } = await admitted(req.params.token, { what: 'download' }, req)
      const key = `${mediaPrefix(media.accountId, media.assetId, media.version as string)}${DOWNLOAD_FILES[kind]}`
      const name = `${(media.originalFileName ?? 'media').replace(/\.[^.]*$/, '').replace(/[^\w.-]/g, '_')}.${kind}`
      // Made once per version, never written again.
      return await sendFile(media, req, reply, { key, cacheControl: ruled ? RULED_FILE : FOLLOWS_VERSION, contentType: CONTENT_TYPES[kind], immutable: true, disposition: `attachment; filename="${name}"`, redirectable: true })
    })
  }

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
    const { media, ruled } = await admitted(req.params.token, { what: 'captions' }, req)
    const text = await captionTrack?.(media.accountId, media.assetId, req.params.language)
    if (text === undefined) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const etag = `"${hash('sha1', text, 'base64url').slice(0, 22)}"`
    reply.headers(commonMediaHeaders(ruled ? RULED_PLAYLIST : FOLLOWS_VERSION)).header('etag', etag)
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
      querystring: ClipQuery,
      response: { ...FILE_ANSWER, 400: Problem }
    }
  }, async (req, reply) => {
    const { token, version, rendition, file } = req.params
    const images = Object.hasOwn(IMAGE_FOLDERS, rendition) ? IMAGE_FOLDERS[rendition] : undefined
    if (!(images ?? RENDITION_FILE).test(file)) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const clip = file === 'index.m3u8' ? clipRange(req.query) : null
    const { media, ruled } = await admitted(token, { what: 'rendition', version }, req)
    if (images !== undefined) {
      // An image is written once, whole (what names it — the WebVTT file, the list of frames — comes after).
      const key = `${mediaPrefix(media.accountId, media.assetId, version)}${rendition}/${file}`
      return await sendFile(media, req, reply, { key, cacheControl: ruled ? RULED_FILE : IMMUTABLE, contentType: CONTENT_TYPES.preview, immutable: true, redirectable: true })
    }
    if (clip !== null) {
      // An instant clip: the stored playlist cut to the segments covering the range (docs/media.md, "Instant clips").
      const text = cutMediaPlaylist(await readText(store, `${mediaPrefix(media.accountId, media.assetId, version)}${rendition}/index.m3u8`), clip)
      const etag = `"${hash('sha1', text, 'base64url').slice(0, 22)}"`
      reply.headers(commonMediaHeaders(GROWS)).header('etag', etag)
      if (notModified(req.headers, { etag, lastModified: undefined })) return await reply.code(304).send()
      return await reply.type(CONTENT_TYPES.playlist).send(text)
    }
    const segment = file.endsWith('.ts')
    return await sendFile(media, req, reply, {
      key: `${mediaPrefix(media.accountId, media.assetId, version)}${rendition}/${file}`,
      cacheControl: segment ? (ruled ? RULED_FILE : IMMUTABLE) : (ruled ? RULED_PLAYLIST : GROWS),
      contentType: segment ? CONTENT_TYPES.segment : CONTENT_TYPES.playlist,
      // A segment is written once; a playlist may be written again (a growing one), so it is described every time.
      immutable: segment,
      redirectable: segment,
      playlist: !segment
    })
  })
}

/**
 * What this request's master carries beyond the plain one, and the key naming it (the rendered master is
 * kept per key while the asset's rendition set is unchanged). Empty for the plain master; an instant
 * clip's variants carry its range, so their playlists are cut the same way.
 */
function masterVariant (media: ServedAsset, request: FastifyRequest): { key: string, options: MasterPlaylistOptions } {
  void media
  const clip = clipRange(request.query as { start?: string, end?: string })
  if (clip === null) return { key: '', options: {} }
  const query = clipQuery(clip)
  return { key: `clip:${query}`, options: { childUri: (uri) => `${uri}?${query}` } }
}

/** A stored playlist's text; one that is not there is the route's 404. */
async function readText (store: MediaStore, key: string): Promise<string> {
  let object: Awaited<ReturnType<MediaStore['get']>>
  try {
    object = await store.get(key)
  } catch (error) {
    if (error instanceof MediaNotFoundError) throw new ApiError('media_not_found', 'No media is served at this URL.')
    throw error
  }
  const chunks: Buffer[] = []
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}
