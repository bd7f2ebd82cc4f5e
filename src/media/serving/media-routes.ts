import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ApiError } from '../../errors/index.ts'
import { Problem } from '../../http/schemas.ts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ReadCache } from '../../db/index.ts'
import { CONTENT_TYPES, DOWNLOAD_FILES, PREVIEW_FILE, STORYBOARD_FILE, MediaNotFoundError, mediaPrefix, type MediaStore } from '../store/index.ts'
import { notModified } from './conditional.ts'
import { hash } from 'node:crypto'
import { CLIP_SECONDS_PATTERN, clipQuery, clipRange, cutMediaPlaylist } from './clip.ts'
import { cachedMaster, masterOrder, renderMasterPlaylist, type MasterPlaylistOptions, type RenderedMaster } from './master-playlist.ts'
import { firstPtsOf } from './first-pts.ts'
import { subtitleOptions, type AssetSubtitles } from './subtitle-groups.ts'
import { renderSubtitlePlaylist, renderSubtitleSegment, storedCues, subtitleDurationMs, SUBTITLE_SEGMENT } from './subtitle-playlist.ts'
import { decide, playbackRules, type MediaWanted, type PlaybackRulesDeps, type ServedAsset } from './media-access.ts'
import type { PlaybackTokens } from './playback-token.ts'
import { signedAccess, type SignedAccess } from './signed-access.ts'
import { commonMediaHeaders, servedFiles } from './served-file.ts'
import { KEY_FILE, KEY_ROTATION_SEGMENTS, KEYS_FOLDER } from '../encryption/index.ts'
import type { OriginalUrls } from '../originals/index.ts'

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
  /** Signed playback: the customer's JWTs and the derived tokens of child URLs (docs/playback.md). */
  tokens: PlaybackTokens
  /** An asset's caption track as WebVTT, by language (any form of the tag); undefined when it has none. */
  captionTrack?: (accountId: string, assetId: string, language: string) => Promise<string | undefined>
  /** An asset's caption tracks and its player's caption language, for the master's SUBTITLES groups. */
  subtitles?: (accountId: string, assetId: string, playerId: string | null) => Promise<AssetSubtitles>
  /**
   * An encrypted version's content key, by its index (docs/playback.md, "Encryption"), with the version's
   * rendition names; undefined when the version has no keys.
   */
  contentKey?: (accountId: string, assetId: string, version: string, index: number) => Promise<{ key: Buffer, renditions: readonly string[] } | undefined>
  /**
   * Which listener serves these routes, and PUBLIC_API_URL: encrypted media and its keys are answered by
   * the api listener over HTTPS only; anywhere else they are refused, naming the HTTPS URL.
   */
  listener: { variant: 'api' | 'cdn', httpsUrl: string }
  /** The signed URLs of originals: the source route opens only with one (docs/media.md, "Originals"). */
  originals: OriginalUrls
  now?: () => number
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
/** The last segment number a rendition's five-digit names can hold. */
const MAX_SEGMENT = 99_999
const DERIVED = Type.String({ pattern: '^d1\\.[A-Za-z0-9_.-]{1,1024}$', description: 'A signed asset\'s derived playback token, which the master playlist puts in the path of its child URLs', examples: ['d1.3f2a9c0e5b7d4e1fa6c8b0d2e4f60718.v.1795000000..Zk3jQ9x-Lm2Pq8Rt5Vw1Yb'] })
const TOKEN = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$', description: 'The asset\'s media token, from its `stream_urls` or `preview_image_url`', examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] })
const VERSION = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$', description: 'The media version, as the master playlist names it', examples: ['q1w2e3r4t5y6u7i8o9p0aa'] })
const RENDITION = Type.String({ pattern: '^[A-Za-z0-9]{1,16}$', description: 'The rendition: 360p, 720p, 1080p, a source-sized one, or audio', examples: ['720p'] })
const FILE = Type.String({ pattern: '^(index\\.m3u8|segment-[0-9]{5}\\.ts|sprite-[0-9]{5}\\.jpg|frame-[0-9]{5}\\.jpg|key-[0-9]{5}\\.key)$', description: 'index.m3u8 or segment-NNNNN.ts; sprite-NNNNN.jpg in the storyboard folder, frame-NNNNN.jpg in the frames folder, key-NNNNN.key in the keys folder of an encrypted version', examples: ['segment-00000.ts'] })
/** An instant clip: `start` and `end` (seconds) cut the playlists to the segments covering the range. */
const ClipQuery = Type.Object({
  start: Type.Optional(Type.String({ pattern: CLIP_SECONDS_PATTERN, description: 'An instant clip\'s start, in seconds (with `end`): the playlists hold only the segments covering the range, no re-encode', examples: ['12.5'] })),
  end: Type.Optional(Type.String({ pattern: CLIP_SECONDS_PATTERN, description: 'An instant clip\'s end, in seconds (with `start`)', examples: ['42'] }))
})
/** An original's signed URL: its expiry (Unix seconds) and the signature over the token and the expiry. */
const SignedOriginalQuery = Type.Object({
  expires: Type.Optional(Type.String({ pattern: '^[0-9]{1,12}$', description: 'When the signed URL stops working, in Unix seconds', examples: ['1795046400'] })),
  signature: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'The URL\'s signature, as the asset gives it', examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6Zk3jQ9x-Lm2'] }))
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
export const mediaRoutes: FastifyPluginAsyncTypebox<MediaRoutesDeps> = async (app, { store, lookup, cache, redirect, fileLane, rules, tokens, captionTrack, subtitles, contentKey, listener, originals, now = Date.now }) => {
  if (redirect === 'presigned' && store.presignedGet === undefined) throw new Error('MEDIA_REDIRECT=presigned needs an S3 media store')
  // `media`: the pipeline gives these routes only the steps a public file needs (docs/media.md, "The request path").
  const config = { public: true, ownCacheHeaders: true, media: true } as const
  const tags = ['media']
  const errors = { 404: Problem }
  const sendFile = servedFiles({ store, cache, redirect: redirect ?? 'proxy', lane: fileLane ?? true })
  const enforce = playbackRules(rules)
  const grantOf = signedAccess(tokens, rules.lookups, rules.now)
  // A refusal (403, 404, 416, a 400 of the path or the clip range) carries the CORS header of the files:
  // a player on another origin (hls.js, with XHR) can then read its status and body. Only errors pay for it.
  app.addHook('onError', async (_request, reply) => { reply.header('access-control-allow-origin', '*') })
  /**
   * The asset a media URL names, once it is playable, its rules allow this request and, for a signed asset,
   * its token does; whether a rule applies (such an answer is for this viewer only, so no shared cache may
   * keep it) and the token's grant. Every media route, present and future, is admitted here.
   */
  async function admitted (token: string, wanted: MediaWanted, req: FastifyRequest): Promise<Admitted> {
    const media = decide(await lookup(token), wanted, req)
    overHttps(media, req)
    const access = await enforce(media, req)
    if (access !== 'signed') return { media, ruled: access === 'ruled', signed: null }
    httpsOnly(req, 'This media is signed')
    // An original opens with its own signed URL (given to the roles that read the asset), not a playback token.
    if (wanted.what === 'source') return { media, ruled: true, signed: null }
    return { media, ruled: true, signed: await grantOf(media, wanted, req) }
  }
  /** Encrypted media is secret: the api listener answers it over HTTPS; elsewhere a 403 names the HTTPS URL. */
  function overHttps (media: ServedAsset, req: FastifyRequest): void {
    if (media.encryption !== 'none') httpsOnly(req, 'This media is encrypted')
  }
  function httpsOnly (req: FastifyRequest, what: string): void {
    if (listener.variant === 'api' && req.protocol === 'https') return
    throw new ApiError('https_required', `${what}: it is served over HTTPS only, at ${listener.httpsUrl}${req.url.split('?', 1)[0] as string}`)
  }
  /** A file's Cache-Control: a signed one is kept no longer than its token lives. */
  function fileCache ({ ruled, signed }: Admitted, open: string): string {
    if (signed !== null) return `private, max-age=${Math.max(0, Math.min(60, signed.grant.exp - Math.floor((rules.now?.() ?? Date.now()) / 1000)))}`
    return ruled ? RULED_FILE : open
  }
  /** Where the child URLs of a signed answer start: its derived token, as a path segment; '' when not signed. */
  const childPrefix = ({ signed }: Admitted): string => signed === null ? '' : `t/${tokens.derive(signed.grant, signed.ctx)}/`

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
    const admission = await admitted(req.params.token, { what: 'master' }, req)
    const { media, ruled } = admission
    const version = media.version as string
    const { key, options } = await masterVariant(media, req, childPrefix(admission))
    const render = (): string | null => renderMasterPlaylist(media.accountId, media, version, media.renditions, options)
    // A signed master carries its viewer's derived token: rendered for each request, never kept.
    const master = admission.signed === null ? cachedMaster(media, key, render) : renderedOnce(render)
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
    const admission = await admitted(req.params.token, { what: 'preview' }, req)
    const { media } = admission
    const key = `${mediaPrefix(media.accountId, media.assetId, media.version as string)}${PREVIEW_FILE}`
    // The stored type: a chosen preview may be a PNG sent by a user (docs/media.md, "Previews").
    return await sendFile(media, req, reply, { key, cacheControl: fileCache(admission, FOLLOWS_VERSION), immutable: false, redirectable: true })
  })

  app.get('/media/:token/source', {
    config,
    schema: {
      operationId: 'getSourceFile',
      summary: 'Download an asset\'s original file',
      description: 'The `source_file` stream URL: the uploaded original of the media the asset plays, as uploaded. Private: it opens only with the signed URL the asset gives to roles that read it (`expires`, `signature`; 48 to 72 hours ahead), never with the media token alone. Range requests work.',
      tags,
      params: Type.Object({ token: TOKEN }),
      querystring: SignedOriginalQuery,
      response: { ...FILE_ANSWER, 400: Problem, 403: Problem }
    }
  }, async (req, reply) => {
    const admission = await admitted(req.params.token, { what: 'source' }, req)
    const { media } = admission
    originals.verify(req.params.token, req.query, now())
    const name = (media.originalFileName ?? 'source').replace(/[^\w.-]/g, '_')
    // An original's key is new for every upload: it is never written twice.
    return await sendFile(media, req, reply, { key: media.originalKey as string, cacheControl: fileCache(admission, FOLLOWS_VERSION), immutable: true, disposition: `attachment; filename="${name}"`, redirectable: true })
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
    const admission = await admitted(req.params.token, { what: 'storyboard' }, req)
    const { media, ruled } = admission
    const version = media.version as string
    const text = await readText(store, `${mediaPrefix(media.accountId, media.assetId, version)}${STORYBOARD_FILE}`)
    // The stored file names its sheets relative to the storyboard folder; the served one sits two levels above it.
    const prefix = `${childPrefix(admission)}${version}/${STORYBOARD_FOLDER}/`
    const rewritten = text.split('\n').map((line) => line.startsWith('sprite-') ? `${prefix}${line}` : line).join('\n')
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
      const admission = await admitted(req.params.token, { what: 'download' }, req)
      const { media } = admission
      const key = `${mediaPrefix(media.accountId, media.assetId, media.version as string)}${DOWNLOAD_FILES[kind]}`
      const name = `${(media.originalFileName ?? 'media').replace(/\.[^.]*$/, '').replace(/[^\w.-]/g, '_')}.${kind}`
      // Made once per version, never written again.
      return await sendFile(media, req, reply, { key, cacheControl: fileCache(admission, FOLLOWS_VERSION), contentType: CONTENT_TYPES[kind], immutable: true, disposition: `attachment; filename="${name}"`, redirectable: true })
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

  const subtitleFile = {
    config,
    schema: {
      operationId: 'getSubtitleFile',
      summary: 'Get a caption track\'s HLS subtitle playlist or segment',
      description: 'What the master\'s SUBTITLES group leads to: the track in the language as a segmented WebVTT media playlist (`index.m3u8`) and its segments (`segment-NNNNN.vtt`, 6 s each), rendered from the stored track when requested, on the timeline of the named rendition of the version (`X-TIMESTAMP-MAP`). Public like the other media files; it follows the asset\'s tracks, so it is cached briefly.',
      tags,
      params: Type.Object({
        token: TOKEN,
        language: Type.String({ maxLength: 35, description: 'The track\'s BCP 47 language tag', examples: ['en'] }),
        version: VERSION,
        rendition: RENDITION,
        file: Type.String({ pattern: '^(index\\.m3u8|segment-[0-9]{5}\\.vtt)$', description: 'index.m3u8 or segment-NNNNN.vtt', examples: ['segment-00000.vtt'] })
      }),
      response: { 200: Type.String({ description: 'The subtitle playlist (application/vnd.apple.mpegurl) or segment (text/vtt)' }), 304: NOT_MODIFIED, ...errors }
    }
  } as const
  const signedSubtitleFile = {
    config,
    schema: {
      ...subtitleFile.schema,
      operationId: 'getSignedSubtitleFile',
      summary: 'Get a signed asset\'s subtitle playlist or segment',
      description: 'The same files under a signed asset\'s master, behind its derived playback token.',
      params: Type.Object({ ...subtitleFile.schema.params.properties, derived: DERIVED })
    }
  } as const
  app.get('/media/:token/captions/:language/:version/:rendition/:file', subtitleFile, async (req, reply) => await sendSubtitleFile(req, reply))
  app.get('/media/:token/t/:derived/captions/:language/:version/:rendition/:file', signedSubtitleFile, async (req, reply) => await sendSubtitleFile(req, reply))
  async function sendSubtitleFile (req: FastifyRequest<{ Params: { token: string, language: string, version: string, rendition: string, file: string } }>, reply: FastifyReply): Promise<FastifyReply> {
    const { language, version, rendition, file } = req.params
    const { media, ruled } = await admitted(req.params.token, { what: 'rendition', version, folder: rendition }, req)
    const text = await captionTrack?.(media.accountId, media.assetId, language)
    // The rendition's first PTS places the cues; a rendition the version does not have has none.
    const start = text === undefined ? null : await firstPtsOf(store, `${mediaPrefix(media.accountId, media.assetId, version)}${rendition}/segment-00000.ts`)
    if (text === undefined || start === null) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const cues = storedCues(text)
    const served = version === media.version ? media.renditions.find((r) => r.name === rendition) : undefined
    const durationMs = subtitleDurationMs(served?.duration_ms ?? null, cues)
    const segment = SUBTITLE_SEGMENT.exec(file)
    const body = segment === null ? renderSubtitlePlaylist(durationMs) : renderSubtitleSegment(cues, Number(segment[1]), durationMs, start)
    if (body === null) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const etag = `"${hash('sha1', body, 'base64url').slice(0, 22)}"`
    reply.headers(commonMediaHeaders(ruled ? RULED_PLAYLIST : FOLLOWS_VERSION)).header('etag', etag)
    if (notModified(req.headers, { etag, lastModified: undefined })) return await reply.code(304).send()
    return await reply.type(segment === null ? CONTENT_TYPES.playlist : 'text/vtt; charset=utf-8').send(body)
  }

  const renditionFile = {
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
  } as const
  const signedRenditionFile = {
    config,
    schema: {
      ...renditionFile.schema,
      operationId: 'getSignedRenditionFile',
      summary: 'Get a signed asset\'s playlist or segment',
      description: 'The same files under a signed asset\'s master: its child URLs carry a derived playback token in their path (so the relative URLs inside the playlists carry it too). Private, cached no longer than the token lives.',
      params: Type.Object({ token: TOKEN, derived: DERIVED, version: VERSION, rendition: RENDITION, file: FILE })
    }
  } as const
  app.get('/media/:token/:version/:rendition/:file', renditionFile, async (req, reply) => await sendRenditionFile(req, reply))
  app.get('/media/:token/t/:derived/:version/:rendition/:file', signedRenditionFile, async (req, reply) => await sendRenditionFile(req, reply))
  async function sendRenditionFile (req: FastifyRequest<{ Params: { token: string, version: string, rendition: string, file: string }, Querystring: { start?: string, end?: string } }>, reply: FastifyReply): Promise<FastifyReply> {
    const { token, version, rendition, file } = req.params
    if (rendition === KEYS_FOLDER) return await sendKey(req, reply, token, version, file)
    const images = Object.hasOwn(IMAGE_FOLDERS, rendition) ? IMAGE_FOLDERS[rendition] : undefined
    if (!(images ?? RENDITION_FILE).test(file)) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const clip = file === 'index.m3u8' ? clipRange(req.query) : null
    const admission = await admitted(token, { what: 'rendition', version, folder: rendition }, req)
    const { media, ruled } = admission
    if (images !== undefined) {
      // An image is written once, whole (what names it — the WebVTT file, the list of frames — comes after).
      const key = `${mediaPrefix(media.accountId, media.assetId, version)}${rendition}/${file}`
      return await sendFile(media, req, reply, { key, cacheControl: fileCache(admission, IMMUTABLE), contentType: CONTENT_TYPES.preview, immutable: true, redirectable: true })
    }
    if (clip !== null) {
      // An instant clip: the stored playlist cut to the segments covering the range (docs/media.md, "Instant clips").
      const text = cutMediaPlaylist(await readText(store, `${mediaPrefix(media.accountId, media.assetId, version)}${rendition}/index.m3u8`), clip)
      const etag = `"${hash('sha1', text, 'base64url').slice(0, 22)}"`
      reply.headers(commonMediaHeaders(ruled ? RULED_PLAYLIST : GROWS)).header('etag', etag)
      if (notModified(req.headers, { etag, lastModified: undefined })) return await reply.code(304).send()
      return await reply.type(CONTENT_TYPES.playlist).send(text)
    }
    const segment = file.endsWith('.ts')
    return await sendFile(media, req, reply, {
      key: `${mediaPrefix(media.accountId, media.assetId, version)}${rendition}/${file}`,
      cacheControl: segment ? fileCache(admission, IMMUTABLE) : (ruled ? RULED_PLAYLIST : GROWS),
      contentType: segment ? CONTENT_TYPES.segment : CONTENT_TYPES.playlist,
      // A segment is written once; a playlist may be written again (a growing one), so it is described every time.
      immutable: segment,
      redirectable: segment,
      playlist: !segment
    })
  }

  async function sendKey (req: FastifyRequest, reply: FastifyReply, token: string, version: string, file: string): Promise<FastifyReply> {
    const index = KEY_FILE.exec(file)?.[1]
    if (index === undefined) throw new ApiError('media_not_found', 'No media is served at this URL.')
    const { media } = await admitted(token, { what: 'rendition', version, folder: KEYS_FOLDER }, req)
    // A key is a secret whatever the asset's setting is now (it may have changed while its old version plays).
    overHttps({ ...media, encryption: 'aes-128' }, req)
    const found = await contentKey?.(media.accountId, media.assetId, version, Number(index))
    const named = found !== undefined && await keyNamed(store, mediaPrefix(media.accountId, media.assetId, version), found.renditions, Number(index))
    return await answerKey(reply, named ? found.key : undefined)
  }

  /**
   * What this request's master carries beyond the plain one, and the key naming it (the rendered master
   * is kept per key while the asset's rendition set is unchanged). `prefix` starts a signed master's child
   * URLs (its derived token). The asset's caption tracks add their SUBTITLES groups (read on every request:
   * a track or a player's caption language changes without a new version); an instant clip's variants
   * carry its range instead, so their playlists are cut the same way (a clip has no subtitles).
   */
  async function masterVariant (media: ServedAsset, request: FastifyRequest, prefix: string): Promise<{ key: string, options: MasterPlaylistOptions }> {
    const clip = clipRange(request.query as { start?: string, end?: string })
    if (clip !== null) {
      const query = clipQuery(clip)
      return { key: `clip:${query}`, options: { childUri: (uri) => `${prefix}${uri}?${query}` } }
    }
    const plain = prefix === '' ? { key: '', options: {} } : { key: prefix, options: { childUri: (uri: string) => `${prefix}${uri}` } }
    const assetSubtitles = await subtitles?.(media.accountId, media.assetId, media.playerId)
    if (assetSubtitles === undefined || assetSubtitles.tracks.length === 0) return plain
    const version = media.version as string
    const entries = masterOrder(media.renditions)
    const starts = new Map<string, number | null>()
    for (const r of entries) starts.set(r.name, await firstPtsOf(store, `${mediaPrefix(media.accountId, media.assetId, version)}${r.name}/segment-00000.ts`))
    const withSubtitles = subtitleOptions(version, entries, starts, assetSubtitles, prefix)
    if (withSubtitles === null) return plain
    return { key: withSubtitles.key, options: { ...withSubtitles.options, ...plain.options } }
  }
}

/** A master rendered for one request only. */
function renderedOnce (render: () => string | null): RenderedMaster | null {
  const text = render()
  if (text === null) return null
  const body = Buffer.from(text)
  return { body, etag: `"${hash('sha1', body, 'base64url').slice(0, 22)}"` }
}

/** What `admitted` answers: the asset, whether a rule applies, and a signed request's grant. */
interface Admitted {
  media: ServedAsset
  ruled: boolean
  signed: Awaited<ReturnType<SignedAccess>> | null
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

/**
 * Whether a playlist of the version names key `index`: its playlists open the run of segments
 * `index × 10` onwards with it, so a rendition must hold that run's first segment (segments are stored
 * before the playlists that name them). A key no playlist names is not answered.
 */
async function keyNamed (store: MediaStore, prefix: string, renditions: readonly string[], index: number): Promise<boolean> {
  const first = index * KEY_ROTATION_SEGMENTS
  if (first > MAX_SEGMENT) return false
  const segment = `segment-${String(first).padStart(5, '0')}.ts`
  for (const rendition of renditions) {
    if (await store.exists(`${prefix}${rendition}/${segment}`)) return true
  }
  return false
}

/**
 * A content key of an encrypted version (docs/playback.md, "Encryption"): admitted like the segments it
 * opens (playable, the rules, a signed asset's token), over HTTPS on the api listener only, never stored
 * by anyone (`no-store`).
 */
async function answerKey (
  reply: FastifyReply, key: Buffer | undefined
): Promise<FastifyReply> {
  if (key === undefined) throw new ApiError('media_not_found', 'No media is served at this URL.')
  reply.headers(commonMediaHeaders('no-store'))
  return await reply.type('application/octet-stream').send(key)
}
