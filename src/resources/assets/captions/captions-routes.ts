import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { callerOf } from '../../../http/request-types.ts'
import { Empty, Problem, SignedErrors, SignedQuery } from '../../../http/schemas.ts'
import { AssetParams, ASSET_ID_DOC } from '../assets-schemas.ts'
import { MAX_CAPTION_BYTES } from './captions-parse.ts'
import { MAX_TRACKS, type CaptionsService } from './captions-service.ts'

const LanguageTag = Type.String({ maxLength: 35, description: 'A BCP 47 language tag (e.g. en, pt-BR)', examples: ['en'] })
const Track = Type.Object({
  language: Type.String({ description: 'The track\'s BCP 47 language tag, canonical', examples: ['en'] }),
  name: Type.String({ description: 'The name players show for the track', examples: ['English'] }),
  format: Type.Union([Type.Literal('dfxp'), Type.Literal('webvtt'), Type.Literal('srt')], { description: 'The format the track was uploaded in', examples: ['dfxp'] }),
  auto_generated: Type.Boolean({ description: 'Made by a speech-recognition engine rather than uploaded', examples: [false] }),
  engine: Type.Union([Type.String(), Type.Null()], { description: 'The engine that made a generated track; null for an uploaded one', examples: [null] }),
  created_at: Type.String({ description: 'When the track was first written (ISO 8601 UTC)', examples: ['2026-11-22T10:00:00.000Z'] }),
  url: Type.Union([Type.String(), Type.Null()], { description: 'The track as WebVTT at a public media URL, for players; null until the asset\'s media is processed', examples: ['https://api.example.com/media/Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6/captions/en/track.vtt'] })
}, { title: 'CaptionTrack', description: 'A caption track of an asset' })
const TrackList = Type.Array(Track, { description: 'The asset\'s caption tracks, by language', examples: [[{ language: 'en', name: 'English', format: 'dfxp', auto_generated: false, engine: null, created_at: '2026-11-22T10:00:00.000Z', url: 'https://api.example.com/media/Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6/captions/en/track.vtt' }]] })
const TrackParams = Type.Object({
  asset_id: Type.String({ description: ASSET_ID_DOC.description, examples: [ASSET_ID_DOC.example] }),
  language: LanguageTag
})
const WriteQuery = Type.Object({
  ...SignedQuery,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f]*$', description: 'The name players show (default: the language\'s English name, or the name the track had)', examples: ['English (CC)'] }))
})
const PostQuery = Type.Object({ ...WriteQuery.properties, language: Type.Optional(LanguageTag) })
const ReadQuery = Type.Object({
  ...SignedQuery,
  format: Type.Optional(Type.Literal('original', { description: '`original`: the body as uploaded, instead of its WebVTT rendering', examples: ['original'] }))
})
const SignedOnly = Type.Object(SignedQuery)
const errors = { ...SignedErrors, 409: Problem, 413: Problem }
const textAnswer = (description: string) => ({
  description,
  content: {
    'text/vtt': { schema: Type.String({ description: 'A WebVTT file', examples: ['WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello\n'] }) },
    'application/ttml+xml': { schema: Type.String({ description: 'A DFXP/TTML document, as uploaded', examples: ['<tt xmlns="http://www.w3.org/ns/ttml">…</tt>'] }) },
    'application/x-subrip': { schema: Type.String({ description: 'An SRT file, as uploaded', examples: ['1\n00:00:01,000 --> 00:00:02,500\nHello\n'] }) }
  }
})
const BODY = `The body is the track itself, raw, in any Content-Type (DFXP/TTML, WebVTT or SRT, told apart by its content): UTF-8 text without control characters but TAB, CR and LF, at most ${MAX_CAPTION_BYTES / 1024 / 1024} MiB. A track that cannot be read is a 400 naming the line.`

/**
 * An asset's caption tracks (docs/captions.md): Backlot's `closed_captions` (one DFXP/TTML track in the
 * player's caption language) and `captions` by language. Bodies are the raw tracks (`rawBody`), signed
 * as received; a track is at most 5 MiB whatever BODY_LIMIT_BYTES says.
 */
export const captionsRoutes: FastifyPluginAsyncTypebox<{ captions: CaptionsService }> = async (app, { captions }) => {
  const tags = ['assets']
  const read = { permission: ['assets', 'read'] as const, cdnCache: false }
  const write = { permission: ['assets', 'write'] as const, rawBody: true }
  const bodyLimit = MAX_CAPTION_BYTES
  const closed = '/v2/assets/:asset_id/closed_captions'
  const list = '/v2/assets/:asset_id/captions'
  const one = `${list}/:language`

  app.get(closed, {
    config: read,
    schema: {
      operationId: 'getClosedCaptions',
      summary: 'Get an asset\'s closed captions (Backlot)',
      description: 'Answers the track in the account\'s caption language (the player\'s `default_closed_caption_language`, else `en`) as it was uploaded.',
      tags, params: AssetParams, querystring: SignedOnly, response: { 200: textAnswer('The track as uploaded'), ...errors }
    }
  }, async (req, reply) => {
    const track = await captions.closedCaptions(callerOf(req), req.params.asset_id)
    return await reply.type(track.contentType).send(track.body)
  })
  app.put(closed, {
    config: write,
    bodyLimit,
    schema: {
      operationId: 'putClosedCaptions',
      summary: 'Upload an asset\'s closed captions (Backlot)',
      description: `Stores a DFXP/TTML track in the account's caption language (the player's \`default_closed_caption_language\`, else \`en\`), replacing the one there was. ${BODY} Answers the track.`,
      tags, params: AssetParams, querystring: SignedOnly, response: { 200: Track, ...errors }
    }
  }, async (req) => await captions.write(callerOf(req), req.params.asset_id, bodyOf(req.body), { formats: ['dfxp'], fromPlayer: true }))
  app.delete(closed, {
    config: { permission: write.permission },
    schema: {
      operationId: 'deleteClosedCaptions',
      summary: 'Delete an asset\'s closed captions (Backlot)',
      description: 'Deletes the track in the account\'s caption language and answers `{}`.',
      tags, params: AssetParams, querystring: SignedOnly, response: { 200: Empty, ...errors }
    }
  }, async (req) => {
    await captions.remove(callerOf(req), req.params.asset_id, undefined)
    return {}
  })

  app.get(list, {
    config: read,
    schema: {
      operationId: 'listCaptionTracks',
      summary: 'List an asset\'s caption tracks',
      description: `Answers every caption track of the asset (at most ${MAX_TRACKS}), by language; not paged.`,
      tags, params: AssetParams, querystring: SignedOnly, response: { 200: TrackList, ...errors }
    }
  }, async (req) => await captions.list(callerOf(req), req.params.asset_id))
  app.post(list, {
    config: write,
    bodyLimit,
    schema: {
      operationId: 'addCaptionTrack',
      summary: 'Upload a caption track',
      description: `Stores a track in the language \`language\` names, else the one the track declares (TTML \`xml:lang\`); a track of that language is replaced. ${BODY} Answers the track, 201.`,
      tags, params: AssetParams, querystring: PostQuery, response: { 201: Track, ...errors }
    }
  }, async (req, reply) => {
    // Set before the write, so an Idempotency-Key stores the status with the answer.
    reply.code(201)
    return await captions.write(callerOf(req), req.params.asset_id, bodyOf(req.body), { language: req.query.language, name: req.query.name })
  })
  app.get(one, {
    config: read,
    schema: {
      operationId: 'getCaptionTrack',
      summary: 'Get a caption track',
      description: 'Answers the track as WebVTT, or as uploaded with `format=original`.',
      tags, params: TrackParams, querystring: ReadQuery, response: { 200: textAnswer('The track'), ...errors }
    }
  }, async (req, reply) => {
    const track = await captions.body(callerOf(req), req.params.asset_id, req.params.language, req.query.format === 'original')
    return await reply.type(track.contentType).send(track.body)
  })
  app.put(one, {
    config: write,
    bodyLimit,
    schema: {
      operationId: 'putCaptionTrack',
      summary: 'Upload a caption track for a language',
      description: `Stores the track in the path's language, replacing the one there was (a generated one too). ${BODY} Answers the track.`,
      tags, params: TrackParams, querystring: WriteQuery, response: { 200: Track, ...errors }
    }
  }, async (req) => await captions.write(callerOf(req), req.params.asset_id, bodyOf(req.body), { language: req.params.language, name: req.query.name }))
  app.delete(one, {
    config: { permission: write.permission },
    schema: {
      operationId: 'deleteCaptionTrack',
      summary: 'Delete a caption track',
      description: 'Deletes the track in the path\'s language and answers `{}`.',
      tags, params: TrackParams, querystring: SignedOnly, response: { 200: Empty, ...errors }
    }
  }, async (req) => {
    await captions.remove(callerOf(req), req.params.asset_id, req.params.language)
    return {}
  })
}

function bodyOf (body: unknown): Buffer | undefined {
  return Buffer.isBuffer(body) ? body : undefined
}
