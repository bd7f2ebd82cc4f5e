// The search module's public face: open the store the configuration names, and the types callers need.
export { MAPPING_VERSION, queryWords, TEXT_FIELDS, type IndexInfo, type SearchDocument, type SearchRef, type SearchStore, type TextField, type TranscriptHit, type TranscriptCue } from './search-store.ts'
export { createFts5Store } from './fts5-store.ts'
export { createSearchStore, outdatedIndices, parseSearchUrl } from './create-search-store.ts'
export { openSearchStore, searchDatabasePath } from './open-search-store.ts'
