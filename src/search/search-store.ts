// The one interface every search backend implements: SQLite FTS5 embedded, OpenSearch or
// Elasticsearch in scale-out (docs/search-and-indexing.md). One index per account, `${prefix}-${accountId}`.

export const SEARCH_TYPES = ['asset', 'label', 'player', 'syndication', 'transcript'] as const
export type SearchType = typeof SEARCH_TYPES[number]

export const DEFAULT_INDEX_PREFIX = 'flex-account'

/**
 * The version of what is indexed and how (fields, their types, analysis), in every backend. Bump it
 * when a release changes field names or types or adds fields: indices recorded with another version
 * report "reindex required" (docs/search-and-indexing.md).
 */
export const MAPPING_VERSION = 2

/** Text fields that queries match on; each backend analyses them case- and diacritic-insensitively. */
export const TEXT_FIELDS = ['name', 'description', 'labels'] as const
export type TextField = typeof TEXT_FIELDS[number]

export interface SearchRef {
  type: SearchType
  id: string
}

/**
 * One indexed resource. For assets `fields` holds name, description, labels (full names),
 * metadata (string map), status, asset_type, duration (ms), created_at and updated_at; for labels,
 * players and syndications their own scalar fields (name, full_name…).
 */
export interface SearchDocument extends SearchRef {
  fields: Record<string, unknown>
}

/**
 * A clause of the `where` language answered from the index. `name`/`description`: every word of
 * `text` appears in the field. `labels`: `text` (a label name) appears as a phrase in one of the
 * label full names, so `INCLUDES 'News'` matches `/News/Sports`; the caller may refine exactly in SQL.
 */
export interface TextClause {
  field: TextField
  text: string
}

export interface SearchQuery {
  /** Defaults to `asset`, the only type the `where` language searches today. */
  type?: SearchType
  /** All clauses must match (AND). No clauses: every document of the type. */
  clauses: TextClause[]
}

/**
 * An asset's transcripts (type `transcript`, id the asset's): `fields.cues` lists the cues of every
 * caption track. A store keeps each cue as a search document of its own (account, asset, language,
 * start, end, text) and replaces or removes an asset's cues together, so an edit to the asset itself
 * never resends them.
 */
export interface TranscriptCue {
  language: string
  start_ms: number
  end_ms: number
  text: string
}

export interface TranscriptQuery {
  /** Every word must appear in the cue (case- and diacritic-insensitively). */
  text: string
  language?: string
  /** Only cues of these assets (a caller that sees only its own assets). */
  assetIds?: readonly string[]
  /** The `key` of the last hit of the previous page. */
  after?: string
  limit: number
}

/** A matching cue; hits come in `key` order: asset id, language, start. */
export interface TranscriptHit extends TranscriptCue {
  asset_id: string
  key: string
}

export interface IndexInfo {
  name: string
  /** `null` when the index carries no version (created by hand or by an older release). */
  mappingVersion: number | null
}

export interface SearchStore {
  readonly kind: 'fts5' | 'opensearch' | 'elasticsearch'
  readonly prefix: string
  /** The version this code writes; compare with `storedMappingVersion` to detect "reindex required". */
  readonly mappingVersion: number
  indexName: (accountId: string) => string
  /** Creates the account's index with the current mapping unless it exists; true when created. */
  ensureIndex: (accountId: string) => Promise<boolean>
  /** Inserts or replaces documents by (type, id); creates the index first when missing. Idempotent. */
  upsert: (accountId: string, docs: SearchDocument[]) => Promise<void>
  /** Removes documents; refs that are not indexed are ignored. */
  remove: (accountId: string, refs: SearchRef[]) => Promise<void>
  /** The ids of every matching document, in no particular order; [] when the index is missing. */
  search: (accountId: string, query: SearchQuery) => Promise<string[]>
  /** Cues whose text holds every word of the query, in key order, at most `limit`; [] when the index is missing. */
  searchTranscripts: (accountId: string, query: TranscriptQuery) => Promise<TranscriptHit[]>
  count: (accountId: string, type?: SearchType) => Promise<number>
  get: (accountId: string, type: SearchType, id: string) => Promise<SearchDocument | null>
  /** Deletes one account's index and any build of it (the manual partial re-index, docs/search-and-indexing.md); false when none existed. */
  deleteIndex: (accountId: string) => Promise<boolean>
  /** `DELETE /${prefix}*` (a complete re-index, docs/search-and-indexing.md), done by name; answers the names deleted. */
  deleteAllIndices: () => Promise<string[]>
  /** Every index whose name starts with the prefix (engines: the concrete names), with its stored mapping version. */
  listIndices: () => Promise<IndexInfo[]>
  /** The accounts that have an index, live or being built (the ones a complete rebuild rebuilds). */
  indexedAccounts: () => Promise<string[]>
  /**
   * Starts building the account's next index beside the live one (docs/search-and-indexing.md,
   * "Rebuilding without an outage"): from now on every write reaches both, every read the live one.
   * An unfinished earlier build is dropped first. Answers the new index's name.
   */
  beginRebuild: (accountId: string) => Promise<string>
  /** Swaps the built index in for the live one, in one step; false when no build was begun. */
  finishRebuild: (accountId: string) => Promise<boolean>
  /** Drops an unfinished build, leaving the live index as it is; false when there was none. */
  cancelRebuild: (accountId: string) => Promise<boolean>
  /** The mapping version stored with the account's index; `undefined` when the index is missing. */
  storedMappingVersion: (accountId: string) => Promise<number | null | undefined>
  close: () => Promise<void>
}

// Index names must be valid for Elasticsearch (lowercase, no separators) and safe as SQLite identifiers.
const INDEX_PART = /^[a-z0-9][a-z0-9_.-]*$/

/** `${prefix}-${accountId}`; throws for a prefix or account id that cannot name an index. */
export function indexNameFor (prefix: string, accountId: string): string {
  if (!INDEX_PART.test(accountId)) throw new Error(`account id ${JSON.stringify(accountId)} cannot name a search index`)
  return `${prefix}-${accountId}`
}

export function checkPrefix (prefix: string): string {
  if (!INDEX_PART.test(prefix)) throw new Error(`search index prefix ${JSON.stringify(prefix)} must be lowercase letters, digits, '.', '_' or '-'`)
  return prefix
}

/**
 * The words of a query text: runs of letters, digits and combining marks, which is roughly where
 * both FTS5's unicode61 and Elasticsearch's standard tokenizer split. A text without words matches
 * nothing, as `match` does in Elasticsearch (zero_terms_query: none).
 */
export function queryWords (text: string): string[] {
  return text.split(/[^\p{L}\p{N}\p{M}]+/u).filter((word) => word !== '')
}

/** The cues a transcript document lists (malformed entries are left out). */
export function transcriptCues (doc: SearchDocument): TranscriptCue[] {
  const cues = doc.fields.cues
  if (!Array.isArray(cues)) return []
  return cues.filter((cue): cue is TranscriptCue => typeof cue === 'object' && cue !== null &&
    typeof cue.language === 'string' && typeof cue.text === 'string' && Number.isInteger(cue.start_ms) && Number.isInteger(cue.end_ms))
}

/**
 * A cue's id within its asset's transcripts, which orders hits: language, then start (zero-padded),
 * then position. Both stores page on `${assetId}/${cueKey}`.
 */
export function cueKey (assetId: string, cue: TranscriptCue, position: number): string {
  return `${assetId}/${cue.language}/${String(cue.start_ms).padStart(12, '0')}/${String(position).padStart(6, '0')}`
}
