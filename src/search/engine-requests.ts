// The request bodies the OpenSearch and Elasticsearch adapters send. Both engines take the same
// JSON for these calls, so it is written once here; the adapters only differ in client plumbing.
import { cueKey, MAPPING_VERSION, transcriptCues, type SearchDocument, type SearchQuery, type SearchRef, type TranscriptQuery } from './search-store.ts'

/**
 * Settings and explicit mapping of an account index. `dynamic: false` keeps unmapped fields in
 * `_source` without indexing them, so no document can change the mapping behind our back; the
 * version in `_meta` is what "reindex required" is decided on.
 */
export function indexBody (): { settings: Record<string, unknown>, mappings: Record<string, unknown> } {
  const text = { type: 'text', analyzer: 'folded' }
  return {
    settings: {
      // Words match case- and diacritic-insensitively, like FTS5's unicode61 remove_diacritics.
      analysis: { analyzer: { folded: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } } }
    },
    mappings: {
      _meta: { mapping_version: MAPPING_VERSION },
      dynamic: false,
      properties: {
        doc_type: { type: 'keyword' },
        doc_id: { type: 'keyword' },
        name: text,
        description: text,
        labels: text,
        full_name: text,
        // A transcript cue (doc_type `cue`): its asset, language, times and text.
        asset_id: { type: 'keyword' },
        language: { type: 'keyword' },
        start_ms: { type: 'long' },
        end_ms: { type: 'long' },
        transcript: text,
        status: { type: 'keyword' },
        asset_type: { type: 'keyword' },
        duration: { type: 'long' },
        created_at: { type: 'date' },
        updated_at: { type: 'date' },
        // Kept for get(); not searchable: free-form keys would grow the mapping without bound.
        metadata: { type: 'object', enabled: false }
      }
    }
  }
}

/** `_id` of a document: one index holds every type, so the type is part of the key. */
export function documentId (ref: SearchRef): string {
  return `${ref.type}:${ref.id}`
}

// doc_type/doc_id rather than type/id: syndications have a `type` field of their own.
export function toSource (doc: SearchDocument): Record<string, unknown> {
  return { ...doc.fields, doc_type: doc.type, doc_id: doc.id }
}

export function fromSource (ref: SearchRef, source: Record<string, unknown>): SearchDocument {
  const { doc_type: _type, doc_id: _id, ...fields } = source
  return { type: ref.type, id: ref.id, fields }
}

/** The stored type of one transcript cue; `_id` `cue:<asset>/<language>/<start>/<position>`. */
export const CUE = 'cue'

/** The `_id`s of the cues a transcript document writes. */
export function cueIds (doc: SearchDocument): string[] {
  return transcriptCues(doc).map((cue, position) => `${CUE}:${cueKey(doc.id, cue, position)}`)
}

/** An asset's transcript document as the cue documents the engine holds (plus the document itself, which lists them). */
export function cueOperations (index: string, doc: SearchDocument): object[] {
  return transcriptCues(doc).flatMap((cue, position) => {
    const key = cueKey(doc.id, cue, position)
    return [{ index: { _index: index, _id: `${CUE}:${key}` } },
      { doc_type: CUE, doc_id: key, asset_id: doc.id, language: cue.language, start_ms: cue.start_ms, end_ms: cue.end_ms, transcript: cue.text }]
  })
}

/** A page of cue hits in key order (doc_id), after the previous page's last key. */
export function transcriptSearchBody (query: TranscriptQuery): Record<string, unknown> {
  const filter: object[] = [{ term: { doc_type: CUE } }, { match: { transcript: { query: query.text, operator: 'and' } } }]
  if (query.language !== undefined) filter.push({ term: { language: query.language } })
  if (query.assetIds !== undefined) filter.push({ terms: { asset_id: [...query.assetIds] } })
  return {
    size: query.limit,
    _source: ['asset_id', 'language', 'start_ms', 'end_ms', 'transcript'],
    track_total_hits: false,
    sort: [{ doc_id: 'asc' }],
    query: { bool: { filter } },
    ...(query.after === undefined ? {} : { search_after: [query.after] })
  }
}

/** `_bulk` operations: index (insert or replace by `_id`, hence idempotent) and delete. */
export function bulkOperations (index: string, upserts: SearchDocument[], removals: SearchRef[] = []): object[] {
  return [
    ...upserts.flatMap((doc) => [{ index: { _index: index, _id: documentId(doc) } }, toSource(doc)]),
    ...removals.map((ref) => ({ delete: { _index: index, _id: documentId(ref) } }))
  ]
}

/** The query part of a search: filter context only, since callers want membership, not scores. */
export function searchQuery (query: SearchQuery): object {
  const filter: object[] = [{ term: { doc_type: query.type ?? 'asset' } }]
  for (const clause of query.clauses) {
    filter.push(clause.field === 'labels'
      ? { match_phrase: { labels: clause.text } }
      : { match: { [clause.field]: { query: clause.text, operator: 'and' } } })
  }
  return { bool: { filter } }
}

/** Hits per search request; results are paged with search_after on doc_id until exhausted. */
export const SEARCH_PAGE_SIZE = 1000

export function searchBody (query: SearchQuery, after?: string): Record<string, unknown> {
  return {
    size: SEARCH_PAGE_SIZE,
    _source: false,
    track_total_hits: false,
    sort: [{ doc_id: 'asc' }],
    query: searchQuery(query),
    ...(after === undefined ? {} : { search_after: [after] })
  }
}

// Elasticsearch rejects request lines over 4 KiB (http.max_initial_line_length), so a delete of
// many indices by name is split into requests whose comma-joined names stay well under that.
export function deleteBatches (names: string[], maxLength = 3000): string[][] {
  const batches: string[][] = []
  let length = 0
  for (const name of names) {
    const last = batches.at(-1)
    if (last === undefined || length + name.length + 3 > maxLength) {
      batches.push([name])
      length = name.length
    } else {
      last.push(name)
      length += name.length + 3 // the %2C between names
    }
  }
  return batches
}
