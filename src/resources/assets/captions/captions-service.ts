import type { Caller } from '../../../auth/caller.ts'
import { withAccountLock } from '../../../db/account-lock.ts'
import type { Database } from '../../../db/index.ts'
import { ApiError, validationError } from '../../../errors/api-error.ts'
import { storedTime, type Clock } from '../../../lib/clock.ts'
import type { AssetsService } from '../assets-service.ts'
import { CaptionError, captionText, parseCaptions, renderWebVtt, type CaptionFormat, type Cue, type ParsedTrack } from './captions-parse.ts'
import { canonicalLanguage, LANGUAGE_NAMES } from './captions-language.ts'
import { createCaptionsRepository, type CaptionRow, type CaptionSummary } from './captions-repository.ts'

/** The most caption tracks an asset holds. */
export const MAX_TRACKS = 30

/** A track as the API shows it. */
export interface ApiCaptionTrack {
  language: string
  name: string
  format: CaptionFormat
  auto_generated: boolean
  engine: string | null
  created_at: string
  /** The track as WebVTT at a public media URL; null until the asset's media is processed. */
  url: string | null
}

/** A track's body for a GET: its text and the media type it is served with. */
export interface CaptionBody {
  body: string
  contentType: string
}

const MEDIA_TYPES: Record<CaptionFormat, string> = {
  dfxp: 'application/ttml+xml; charset=utf-8',
  webvtt: 'text/vtt; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8'
}

function languageOr400 (tag: string, field: string): string {
  const canonical = canonicalLanguage(tag)
  if (canonical === undefined) {
    throw validationError(`Parameter ${field}: "${tag}" is not a known BCP 47 language tag (e.g. en, pt-BR).`, { [field]: ['is not a known BCP 47 language tag'] })
  }
  return canonical
}

/** The row as the API shows it; `media` is the asset's public media root (`…/media/<token>`), or null. */
function toApi (row: CaptionSummary, media: string | null): ApiCaptionTrack {
  return {
    language: row.language,
    name: row.name,
    format: row.format as CaptionFormat,
    auto_generated: row.auto_generated === 1,
    engine: row.engine,
    created_at: row.created_at,
    url: media === null ? null : `${media}/captions/${row.language}/track.vtt`
  }
}

async function parsedOr400 (body: Buffer | undefined): Promise<{ text: string, track: ParsedTrack }> {
  if (body === undefined || body.length === 0) throw new ApiError('caption_invalid', 'Caption body is empty.')
  try {
    const text = captionText(body)
    return { text, track: await parseCaptions(text) }
  } catch (error) {
    if (error instanceof CaptionError) throw new ApiError('caption_invalid', error.message)
    throw error
  }
}

/** What a track is written with besides its body. */
export interface TrackOptions {
  /** The language the path or `?language=` names; else the one the file declares. */
  language?: string
  name?: string
  /** Only these formats are taken (Backlot's closed_captions takes DFXP/TTML). */
  formats?: readonly CaptionFormat[]
}

/**
 * An asset's caption tracks (docs/captions.md): one per language, stored as uploaded and as WebVTT.
 * Reads find the asset as the caller may see it; writes go through the asset's write path
 * (`AssetsService.change`), so the asset's `updated_at` and its search document move with its tracks.
 */
export function createCaptionsService ({ database, clock, mediaBaseUrl }: { database: Database, clock: Clock, mediaBaseUrl: string }, assets: Pick<AssetsService, 'find' | 'change'>) {
  const captions = createCaptionsRepository(database.db)
  const mediaOf = (asset: { media_token: string | null }): string | null => asset.media_token === null ? null : `${mediaBaseUrl}/media/${asset.media_token}`

  async function trackOf (caller: Caller, ref: string, language: string): Promise<CaptionRow> {
    const asset = await assets.find(caller, ref)
    const canonical = languageOr400(language, 'language')
    const row = await captions.find(caller.accountId, asset.id, canonical)
    if (row === undefined) throw new ApiError('caption_not_found', `Asset ${asset.id} has no ${canonical} caption track.`)
    return row
  }

  return {
    async list (caller: Caller, ref: string): Promise<ApiCaptionTrack[]> {
      const asset = await assets.find(caller, ref)
      return (await captions.list(caller.accountId, asset.id)).map((row) => toApi(row, mediaOf(asset)))
    },

    /** The track's WebVTT rendering, or with `original` the body as uploaded. */
    async body (caller: Caller, ref: string, language: string, original: boolean): Promise<CaptionBody> {
      const row = await trackOf(caller, ref, language)
      return original ? { body: row.original, contentType: MEDIA_TYPES[row.format as CaptionFormat] } : { body: row.webvtt, contentType: MEDIA_TYPES.webvtt }
    },

    /** A track's WebVTT for the public media URL: by the asset's id, whoever asks (the media token is the credential). */
    async webvttOf (accountId: string, assetId: string, language: string): Promise<string | undefined> {
      const canonical = canonicalLanguage(language)
      return canonical === undefined ? undefined : (await captions.find(accountId, assetId, canonical))?.webvtt
    },

    /**
     * What the HLS master needs of the asset's tracks (by the asset's id, as the media token named it):
     * each track's language and name, and the caption language of the asset's player, else of the
     * account's default player ('' when the player names none).
     */
    async forMaster (accountId: string, assetId: string, playerId: string | null): Promise<{ tracks: Array<{ language: string, name: string }>, defaultLanguage: string }> {
      const tracks = (await captions.list(accountId, assetId)).map((row) => ({ language: row.language, name: row.name }))
      if (tracks.length === 0) return { tracks, defaultLanguage: '' }
      const fromPlayer = await captions.playerLanguage(accountId, playerId)
      return { tracks, defaultLanguage: fromPlayer === '' ? '' : canonicalLanguage(fromPlayer) ?? '' }
    },

    /** Backlot's `GET closed_captions`: the track of the asset's caption language, as uploaded. */
    async closedCaptions (caller: Caller, ref: string): Promise<CaptionBody> {
      const asset = await assets.find(caller, ref)
      const language = await defaultLanguage(caller, asset.player_id)
      const row = await captions.find(caller.accountId, asset.id, language)
      if (row === undefined) throw new ApiError('caption_not_found', `Asset ${asset.id} has no ${language} caption track.`)
      return { body: row.original, contentType: MEDIA_TYPES[row.format as CaptionFormat] }
    },

    /**
     * Parses, checks and stores a track: its language from `options`, else the file's, else the
     * player's caption language (Backlot's closed_captions); an uploaded track replaces a generated one.
     */
    async write (caller: Caller, ref: string, body: Buffer | undefined, options: TrackOptions & { fromPlayer?: boolean }): Promise<ApiCaptionTrack> {
      const requested = options.language === undefined ? undefined : languageOr400(options.language, 'language')
      const { text, track } = await parsedOr400(body)
      if (options.formats !== undefined && !options.formats.includes(track.format)) {
        throw new ApiError('caption_invalid', `Line 1: closed_captions takes DFXP/TTML; this body is ${track.format === 'webvtt' ? 'WebVTT' : 'SRT'} (upload it to /captions instead).`)
      }
      if (track.cues.length === 0) throw new ApiError('caption_invalid', 'The track holds no cue.')
      let written: ApiCaptionTrack | undefined
      // The track is the transaction's answer: what an Idempotency-Key stores with the write.
      return await assets.change(caller, ref, async (trx, asset) => {
        const declared = track.declaredLanguage === undefined ? undefined : canonicalLanguage(track.declaredLanguage)
        const language = requested ??
          (options.fromPlayer === true ? await defaultLanguage(caller, asset.player_id, trx) : declared)
        if (language === undefined) {
          throw validationError('Parameter language is required: the track declares no language of its own.', { language: ['is required'] })
        }
        const existing = await captions.list(caller.accountId, asset.id, trx)
        const before = existing.find((row) => row.language === language)
        if (before === undefined && existing.length >= MAX_TRACKS) {
          throw new ApiError('caption_tracks_full', `Asset ${asset.id} has ${MAX_TRACKS} caption tracks, the most it may; delete one or replace a language it has.`)
        }
        const now = storedTime(clock.now())
        const row: CaptionRow = {
          account_id: caller.accountId,
          asset_id: asset.id,
          language,
          name: options.name ?? before?.name ?? LANGUAGE_NAMES.of(language) ?? language,
          format: track.format,
          auto_generated: 0,
          engine: null,
          original: text,
          webvtt: renderWebVtt(track.cues),
          cue_count: track.cues.length,
          created_at: before?.created_at ?? now,
          updated_at: now
        }
        await captions.upsert(caller.accountId, row, trx)
        written = toApi(row, mediaOf(asset))
        return {}
      }, () => written as ApiCaptionTrack)
    },

    /**
     * A track a speech-recognition engine made: stored unless the asset is gone or has an uploaded track
     * of the language (an upload is never replaced by a generated track). True when stored.
     */
    async storeGenerated (accountId: string, assetId: string, language: string, engine: string, cues: Cue[]): Promise<boolean> {
      return await withAccountLock(database, accountId, async (trx) => {
        const asset = await trx.selectFrom('assets').select('id').where('account_id', '=', accountId).where('id', '=', assetId).executeTakeFirst()
        if (asset === undefined) return false
        const before = await captions.find(accountId, assetId, language, trx)
        if (before !== undefined && before.auto_generated === 0) return false
        if (before === undefined && (await captions.list(accountId, assetId, trx)).length >= MAX_TRACKS) return false
        const now = storedTime(clock.now())
        const webvtt = renderWebVtt(cues)
        await captions.upsert(accountId, {
          account_id: accountId,
          asset_id: assetId,
          language,
          name: `${LANGUAGE_NAMES.of(language) ?? language} (auto-generated)`,
          format: 'webvtt',
          auto_generated: 1,
          engine,
          original: webvtt,
          webvtt,
          cue_count: cues.length,
          created_at: before?.created_at ?? now,
          updated_at: now
        }, trx)
        return true
      })
    },

    async remove (caller: Caller, ref: string, language: string | undefined): Promise<void> {
      const canonical = language === undefined ? undefined : languageOr400(language, 'language')
      await assets.change(caller, ref, async (trx, asset) => {
        const target = canonical ?? await defaultLanguage(caller, asset.player_id, trx)
        if (!await captions.remove(caller.accountId, asset.id, target, trx)) {
          throw new ApiError('caption_not_found', `Asset ${asset.id} has no ${target} caption track.`)
        }
        return {}
      }, () => undefined)
    }
  }

  /** The account's caption language: the player's `default_closed_caption_language`, else `en`. */
  async function defaultLanguage (caller: Caller, playerId: string | null, trx = database.db): Promise<string> {
    const fromPlayer = await captions.playerLanguage(caller.accountId, playerId, trx)
    return (fromPlayer === '' ? undefined : canonicalLanguage(fromPlayer)) ?? 'en'
  }
}

export type CaptionsService = ReturnType<typeof createCaptionsService>
