import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import { ownAssetsOnly } from '../../../auth/roles.ts'
import type { Caller } from '../../../auth/caller.ts'
import type { DB } from '../../../db/tables/index.ts'
import { ApiError } from '../../../errors/index.ts'
import { callerOf } from '../../../http/request-types.ts'
import { PageQuery, pageOf, SignedErrors } from '../../../http/schemas.ts'
import { inList } from '../../../lib/in-list.ts'
import { pageParams, toPage, type Page, type PageParams, type PageTokens } from '../../../paging/index.ts'
import { queryWords, type SearchStore, type TranscriptHit } from '../../../search/index.ts'
import { canonicalLanguage } from './captions-language.ts'

const Hit = Type.Object({
  asset_id: Type.String({ description: 'The embed code of the asset whose captions say it', examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] }),
  language: Type.String({ description: 'The caption track\'s BCP 47 language tag', examples: ['en'] }),
  start_ms: Type.Integer({ description: 'When the cue starts, in milliseconds from the start of the media', examples: [72000] }),
  end_ms: Type.Integer({ description: 'When the cue ends, in milliseconds', examples: [75500] }),
  text: Type.String({ description: 'The cue\'s text, without markup', examples: ['Our quarterly coffee report'] }),
  highlight: Type.String({ description: 'The text, HTML-escaped, with each matching word in <em>…</em>', examples: ['Our quarterly <em>coffee</em> report'] })
}, { title: 'TranscriptHit', description: 'A caption cue that says what was searched for' })

const Query = Type.Object({
  ...PageQuery.properties,
  q: Type.String({ minLength: 1, maxLength: 500, description: 'Words the cue must say, all of them (case- and accent-insensitive)', examples: ['coffee'] }),
  language: Type.Optional(Type.String({ maxLength: 35, description: 'Only tracks in this BCP 47 language', examples: ['en'] }))
})

/**
 * Searching what is said (docs/captions.md): the caption cues of the caller's account whose text holds
 * every word of `q`, by asset, language and start. `upload_only` callers see the cues of their own assets.
 */
export function createTranscriptSearch (deps: { db: Kysely<DB>, search: SearchStore }) {
  return {
    async search (caller: Caller, query: { q: string, language?: string }, params: PageParams): Promise<Page<TranscriptHit & { highlight: string }>> {
      const words = queryWords(query.q)
      if (words.length === 0) throw new ApiError('bad_request', 'Parameter q must contain at least one word.')
      let language: string | undefined
      if (query.language !== undefined) {
        language = canonicalLanguage(query.language)
        if (language === undefined) throw new ApiError('bad_request', `Parameter language is not a known BCP 47 language tag: ${JSON.stringify(query.language)}.`)
      }
      const after = params.after === undefined ? undefined : String(params.after[0])
      let assetIds: string[] | undefined
      if (ownAssetsOnly(caller.role)) {
        assetIds = (await deps.db.selectFrom('assets').select('id')
          .where('account_id', '=', caller.accountId).where('created_by', '=', caller.userId).execute()).map((row) => row.id)
      }
      const hits = await deps.search.searchTranscripts(caller.accountId, {
        text: query.q, after, limit: params.limit + 1, ...(language === undefined ? {} : { language }), ...(assetIds === undefined ? {} : { assetIds })
      })
      const live = await existing(deps.db, caller.accountId, hits)
      // The look-ahead row decides next_page before cues of assets deleted a moment ago are dropped.
      const page = toPage(hits, params, (hit) => [hit.key], (hit) => ({ ...hit, highlight: highlight(hit.text, words) }))
      page.items = page.items.filter((item) => live.has(item.asset_id))
      for (const item of page.items) delete (item as Partial<TranscriptHit>).key
      return page
    }
  }
}

/** The assets among the hits that still exist (an asset's cues leave the index moments after it). */
async function existing (db: Kysely<DB>, accountId: string, hits: TranscriptHit[]): Promise<Set<string>> {
  const ids = [...new Set(hits.map((hit) => hit.asset_id))]
  if (ids.length === 0) return new Set()
  const rows = await db.selectFrom('assets').select('id').where('account_id', '=', accountId).where('id', 'in', inList(ids)).execute()
  return new Set(rows.map((row) => row.id))
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** The text HTML-escaped, each word that matches a query word (folded, singular or plural) in <em>. */
export function highlight (text: string, words: readonly string[]): string {
  const wanted = new Set(words.map(fold))
  return text.split(/([\p{L}\p{N}\p{M}]+)/u).map((part, i) => {
    const escaped = part.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
    return i % 2 === 1 && wanted.has(fold(part)) ? `<em>${escaped}</em>` : escaped
  }).join('')
}

function fold (word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** `GET /v2/search/transcripts`. */
export const transcriptSearchRoutes: FastifyPluginAsyncTypebox<{ transcripts: ReturnType<typeof createTranscriptSearch>, pageTokens: PageTokens }> = async (app, { transcripts, pageTokens }) => {
  const tokens = pageTokens.forKind('transcript search')
  app.get('/v2/search/transcripts', {
    config: { permission: ['assets', 'read'] as const, cdnCache: false },
    schema: {
      operationId: 'searchTranscripts',
      summary: 'Search what is said in the account\'s videos',
      description: 'The caption cues whose text holds every word of `q`, by asset, language and start, paged like every list. Each hit names its asset, language and the cue\'s start and end, with the matching words highlighted. Callers that see only their own assets (`upload_only`) find only those. Eventually consistent: a caption track shows here once indexed (seconds).',
      tags: ['assets'],
      querystring: Query,
      response: { 200: pageOf(Hit), ...SignedErrors }
    }
  }, async (req) => await transcripts.search(callerOf(req), req.query, pageParams(req, tokens)))
}
