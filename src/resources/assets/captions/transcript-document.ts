import type { Kysely } from 'kysely'
import type { DB } from '../../../db/tables/index.ts'
import type { DocumentTouches } from '../../../outbox/index.ts'
import type { SearchDocument, TranscriptCue } from '../../../search/index.ts'
import { parseCaptions } from './captions-parse.ts'

/**
 * An asset's transcripts (docs/captions.md, "Searching what is said"): the cues of every caption track,
 * read from their WebVTT renderings, as plain text (markup dropped). The store keeps each cue as a
 * document of its own. Null when the asset has no track (its cues are then removed).
 */
export async function loadTranscriptDocument (db: Kysely<DB>, accountId: string, assetId: string): Promise<SearchDocument | null> {
  const tracks = await db.selectFrom('asset_captions').select(['language', 'webvtt'])
    .where('account_id', '=', accountId).where('asset_id', '=', assetId).orderBy('language').execute()
  if (tracks.length === 0) return null
  const cues: TranscriptCue[] = []
  for (const track of tracks) {
    const parsed = await parseCaptions(track.webvtt)
    for (const cue of parsed.cues) {
      const text = plainText(cue.text)
      if (text !== '') cues.push({ language: track.language, start_ms: cue.startMs, end_ms: cue.endMs, text })
    }
  }
  return { type: 'transcript', id: assetId, fields: { cues } }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: ' ', lrm: '', rlm: '', quot: '"', apos: "'" }

/** WebVTT cue text without its tags and entities, lines joined by spaces. */
export function plainText (cueText: string): string {
  return cueText.replace(/<[^>]*>/g, '').replace(/&(\w+);/g, (whole, name: string) => ENTITIES[name] ?? whole)
    .replace(/\s+/g, ' ').trim()
}

/**
 * What touches an asset's transcripts: its caption tracks (recorded by the asset's id), and the asset's
 * delete. An edit to the asset itself does not.
 */
export const transcriptDocumentTouches: DocumentTouches = {
  type: 'transcript',
  rows: ['asset_captions'],
  deletes: ['assets']
}
