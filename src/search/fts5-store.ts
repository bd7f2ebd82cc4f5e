// Embedded search store: one SQLite FTS5 table per account index, in a database file of its own so
// that indexing never contends with the main database's writers.
import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import {
  checkPrefix, cueKey, DEFAULT_INDEX_PREFIX, indexNameFor, MAPPING_VERSION, queryWords, transcriptCues,
  type IndexInfo, type TranscriptHit, type SearchDocument, type SearchQuery, type SearchRef, type SearchStore, type SearchType
} from './search-store.ts'

export interface Fts5StoreOptions {
  /** A file path, or `:memory:` for tests. */
  path: string
  prefix?: string
  /** The page cache in KiB (SQLITE_CACHE_KB); SQLite's own default is 2,000. */
  cacheKb?: number
}

// Not prefixed with the index prefix and not virtual, so deleting `${prefix}*` never touches it.
const VERSIONS_TABLE = 'search_index_versions'

export function createFts5Store (options: Fts5StoreOptions): SearchStore {
  const prefix = checkPrefix(options.prefix ?? DEFAULT_INDEX_PREFIX)
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true })
  const db = new SQLite(options.path)
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 5000')
  db.pragma(`cache_size = -${Math.floor(options.cacheKb ?? 2048)}`)
  db.exec(`CREATE TABLE IF NOT EXISTS ${VERSIONS_TABLE} (name TEXT PRIMARY KEY, mapping_version INTEGER NOT NULL)`)

  const indexName = (accountId: string): string => indexNameFor(prefix, accountId)

  function exists (table: string): boolean {
    return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined
  }

  // The account tables: FTS5 virtual tables named with the prefix (their shadow tables are plain
  // tables and go with them).
  function indexTables (): string[] {
    const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'
      AND substr(name, 1, length(?)) = ? ORDER BY name`).all(prefix, prefix) as Array<{ name: string }>
    return rows.map((row) => row.name)
  }

  // Each write is run `.immediate`: it takes the write lock before its first read, so a process writing
  // the same file makes it wait (the busy timeout) instead of failing the read-to-write upgrade at once.
  const createIndex = db.transaction((table: string): boolean => {
    if (exists(table)) return false
    // type, id and the document's JSON are stored for get() and filtering but not tokenized.
    db.exec(`CREATE VIRTUAL TABLE ${quote(table)} USING fts5(type UNINDEXED, id UNINDEXED, doc UNINDEXED,
      name, description, labels, transcript, tokenize = 'unicode61 remove_diacritics 2')`)
    db.prepare(`INSERT OR REPLACE INTO ${VERSIONS_TABLE} (name, mapping_version) VALUES (?, ?)`).run(table, MAPPING_VERSION)
    return true
  })

  // Tables written by mapping 1 have no `transcript` column: until the reindex they keep taking every
  // other document, and transcripts wait (the index reports "reindex required" meanwhile).
  // Another process may swap or recreate a table under the same name: the cache lives as long as the schema.
  const withTranscripts = new Map<string, boolean>()
  let schemaSeen = -1
  function holdsTranscripts (table: string): boolean {
    const schema = db.pragma('schema_version', { simple: true }) as number
    if (schema !== schemaSeen) { withTranscripts.clear(); schemaSeen = schema }
    let known = withTranscripts.get(table)
    if (known === undefined) {
      known = (db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[]).includes('transcript')
      withTranscripts.set(table, known)
    }
    return known
  }

  const dropIndex = db.transaction((table: string): boolean => {
    withTranscripts.delete(table)
    db.prepare(`DELETE FROM ${VERSIONS_TABLE} WHERE name = ?`).run(table)
    if (!exists(table)) return false
    db.exec(`DROP TABLE ${quote(table)}`)
    return true
  })

  // The live index and its build, if one is under way: every write goes to both, in one transaction.
  const beginBuild = db.transaction((live: string): string => {
    const build = buildName(live)
    dropIndex(build)
    createIndex(build)
    return build
  })

  // One transaction: readers (WAL snapshots) see the old table or the new one, never neither.
  const swapBuild = db.transaction((live: string): boolean => {
    const build = buildName(live)
    if (!exists(build)) return false
    dropIndex(live)
    db.exec(`ALTER TABLE ${quote(build)} RENAME TO ${quote(live)}`)
    db.prepare(`UPDATE ${VERSIONS_TABLE} SET name = ? WHERE name = ?`).run(live, build)
    withTranscripts.clear()
    return true
  })

  const upsertBoth = db.transaction((live: string, docs: SearchDocument[]) => {
    createIndex(live)
    upsertAll(live, docs)
    const build = buildName(live)
    if (exists(build)) upsertAll(build, docs)
  })

  const upsertAll = (table: string, docs: SearchDocument[]): void => {
    const t = quote(table)
    const current = db.prepare(`SELECT type, id FROM ${t} WHERE rowid = ?`)
    const remove = db.prepare(`DELETE FROM ${t} WHERE rowid = ?`)
    const transcripts = holdsTranscripts(table)
    const insert = transcripts
      ? db.prepare(`INSERT INTO ${t} (rowid, type, id, doc, name, description, labels, transcript) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      : db.prepare(`INSERT INTO ${t} (rowid, type, id, doc, name, description, labels) VALUES (?, ?, ?, ?, ?, ?, ?)`)
    const row = (values: unknown[]): unknown[] => transcripts ? values : values.slice(0, 7)
    for (const doc of docs) {
      if (doc.type === 'transcript') {
        if (!transcripts) continue
        removeCues(table, doc.id)
        const cues = transcriptCues(doc)
        cues.forEach((cue, position) => {
          const id = cueKey(doc.id, cue, position)
          insert.run(...row([rowKey({ type: CUE, id }), CUE, id, JSON.stringify({ asset_id: doc.id, ...cue }), '', '', '', cue.text]))
        })
      }
      const rowid = rowKey(doc)
      const found = current.get(rowid) as SearchRef | undefined
      if (found !== undefined && (found.type !== doc.type || found.id !== doc.id)) {
        throw new Error(`search key collision between ${found.type}:${found.id} and ${doc.type}:${doc.id}`)
      }
      remove.run(rowid)
      const { name, description, labels } = doc.fields
      insert.run(...row([rowid, doc.type, doc.id, JSON.stringify(doc.fields), fieldText(name), fieldText(description), fieldText(labels), '']))
    }
  }

  // The cues an asset's transcript document wrote, found through that document (no scan).
  function removeCues (table: string, assetId: string): void {
    const t = quote(table)
    const doc = db.prepare(`SELECT doc FROM ${t} WHERE rowid = ? AND type = 'transcript' AND id = ?`).pluck()
      .get(rowKey({ type: 'transcript', id: assetId }), assetId) as string | undefined
    if (doc === undefined) return
    const remove = db.prepare(`DELETE FROM ${t} WHERE rowid = ? AND type = ? AND id = ?`)
    transcriptCues({ type: 'transcript', id: assetId, fields: JSON.parse(doc) as Record<string, unknown> }).forEach((cue, position) => {
      const id = cueKey(assetId, cue, position)
      remove.run(rowKey({ type: CUE, id }), CUE, id)
    })
  }

  const removeBoth = db.transaction((live: string, refs: SearchRef[]) => {
    for (const table of [live, buildName(live)]) if (exists(table)) removeAll(table, refs)
  })

  const removeAll = (table: string, refs: SearchRef[]): void => {
    const remove = db.prepare(`DELETE FROM ${quote(table)} WHERE rowid = ? AND type = ? AND id = ?`)
    for (const ref of refs) {
      if (ref.type === 'transcript') removeCues(table, ref.id)
      remove.run(rowKey(ref), ref.type, ref.id)
    }
  }

  return {
    kind: 'fts5',
    prefix,
    mappingVersion: MAPPING_VERSION,
    indexName,
    async ensureIndex (accountId) { return createIndex.immediate(indexName(accountId)) },
    async upsert (accountId, docs) { if (docs.length > 0) upsertBoth.immediate(indexName(accountId), docs) },
    async remove (accountId, refs) { removeBoth.immediate(indexName(accountId), refs) },
    async search (accountId, query) {
      const table = indexName(accountId)
      const match = matchExpression(query)
      if (match === null || !exists(table)) return []
      const type = query.type ?? 'asset'
      const sql = `SELECT id FROM ${quote(table)} WHERE ${match === '' ? '' : `${quote(table)} MATCH ? AND `}type = ?`
      return db.prepare(sql).pluck().all(...(match === '' ? [type] : [match, type])) as string[]
    },
    async searchTranscripts (accountId, query) {
      const table = indexName(accountId)
      const words = queryWords(query.text)
      if (words.length === 0 || !exists(table) || !holdsTranscripts(table) || (query.assetIds !== undefined && query.assetIds.length === 0)) return []
      const t = quote(table)
      const params: unknown[] = [words.map((word) => `transcript : ${phrase(word)}`).join(' AND '), CUE]
      let sql = `SELECT id, doc FROM ${t} WHERE ${t} MATCH ? AND type = ?`
      if (query.after !== undefined) { sql += ' AND id > ?'; params.push(query.after) }
      if (query.language !== undefined) { sql += " AND json_extract(doc, '$.language') = ?"; params.push(query.language) }
      if (query.assetIds !== undefined) { sql += " AND json_extract(doc, '$.asset_id') IN (SELECT value FROM json_each(?))"; params.push(JSON.stringify(query.assetIds)) }
      sql += ' ORDER BY id LIMIT ?'
      params.push(query.limit)
      const rows = db.prepare(sql).all(...params) as Array<{ id: string, doc: string }>
      return rows.map((row): TranscriptHit => ({ ...(JSON.parse(row.doc) as Omit<TranscriptHit, 'key'>), key: row.id }))
    },
    async count (accountId, type) {
      const table = indexName(accountId)
      if (!exists(table)) return 0
      const sql = `SELECT count(*) FROM ${quote(table)}${type === undefined ? '' : ' WHERE type = ?'}`
      return db.prepare(sql).pluck().get(...(type === undefined ? [] : [type])) as number
    },
    async get (accountId, type, id) {
      const table = indexName(accountId)
      if (!exists(table)) return null
      const doc = db.prepare(`SELECT doc FROM ${quote(table)} WHERE rowid = ? AND type = ? AND id = ?`).pluck()
        .get(rowKey({ type, id }), type, id) as string | undefined
      return doc === undefined ? null : { type, id, fields: JSON.parse(doc) as Record<string, unknown> }
    },
    async deleteIndex (accountId) {
      const live = indexName(accountId)
      return db.transaction(() => [dropIndex(buildName(live)), dropIndex(live)].includes(true)).immediate()
    },
    async deleteAllIndices () {
      const tables = indexTables()
      for (const table of tables) dropIndex.immediate(table)
      return tables
    },
    async listIndices () {
      const version = db.prepare(`SELECT mapping_version FROM ${VERSIONS_TABLE} WHERE name = ?`).pluck()
      return indexTables().map((name): IndexInfo => ({ name, mappingVersion: (version.get(name) as number | undefined) ?? null }))
    },
    async indexedAccounts () {
      const accounts = indexTables().filter((name) => name.startsWith(`${prefix}-`))
        .map((name) => name.slice(prefix.length + 1, name.endsWith(BUILD_SUFFIX) ? -BUILD_SUFFIX.length : undefined))
      return [...new Set(accounts)]
    },
    async beginRebuild (accountId) { return beginBuild.immediate(indexName(accountId)) },
    async finishRebuild (accountId) { return swapBuild.immediate(indexName(accountId)) },
    async cancelRebuild (accountId) { return dropIndex.immediate(buildName(indexName(accountId))) },
    async storedMappingVersion (accountId) {
      const table = indexName(accountId)
      if (!exists(table)) return undefined
      const version = db.prepare(`SELECT mapping_version FROM ${VERSIONS_TABLE} WHERE name = ?`).pluck().get(table)
      return (version as number | undefined) ?? null
    },
    async close () { db.close() }
  }
}

// The stored type of one cue of a transcript; never a document type callers name.
const CUE = 'cue'

// An account's index being rebuilt: `~` cannot appear in an account id, so no account's live table takes the name.
const BUILD_SUFFIX = '~rebuild'

function buildName (live: string): string {
  return `${live}${BUILD_SUFFIX}`
}

// Between label full names: a private-use character is a token to unicode61 but never a query
// word, so no label phrase can span two full names (Elasticsearch's position_increment_gap).
const BETWEEN_NAMES = ' \uE000 '

/** The text of a field as indexed: label full names are an array, everything else a string. */
function fieldText (value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(BETWEEN_NAMES)
  return typeof value === 'string' ? value : ''
}

/**
 * The FTS5 MATCH expression for a query: `name : "cafe" AND labels : "news sports"`. Every word is
 * quoted so that nothing in user text is read as FTS5 syntax. '' matches everything, null nothing.
 */
export function matchExpression (query: SearchQuery): string | null {
  const parts: string[] = []
  for (const clause of query.clauses) {
    const words = queryWords(clause.text)
    if (words.length === 0) return null
    // A label name is one phrase; name/description need every word, anywhere in the field.
    if (clause.field === 'labels') parts.push(`labels : ${phrase(words.join(' '))}`)
    else parts.push(...words.map((word) => `${clause.field} : ${phrase(word)}`))
  }
  return parts.join(' AND ')
}

function phrase (text: string): string {
  return `"${text.replaceAll('"', '""')}"`
}

function quote (identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`
}

// FTS5 tables have no unique keys, so a document's rowid is derived from (type, id): an upsert is a
// delete and an insert by rowid instead of a scan. 64 bits of SHA-256 make collisions negligible,
// and upsert refuses one rather than overwrite another document.
function rowKey (ref: { type: SearchType | typeof CUE, id: string }): bigint {
  return createHash('sha256').update(`${ref.type}:${ref.id}`).digest().readBigInt64BE(0)
}
