import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { Dialect } from '../db/index.ts'
import { matchWords, textPredicates, wordTerms, type FieldMap, type WhereAst, type WhereHooks } from '../query/index.ts'
import { TEXT_FIELDS, type SearchStore, type TextField } from '../search/index.ts'
import { mapLimit } from './map-limit.ts'
import { inList } from '../lib/in-list.ts'

export interface TextSearchOptions {
  store: SearchStore
  dialect: Dialect
  accountId: string
  /** The column holding the id the index knows the resource by (`assets.id`). */
  idColumn: string
  /** The resource's own hooks: metadata stays in SQL, and `labels INCLUDES` is refined by it. */
  base?: WhereHooks
}

type Builder = ExpressionBuilder<any, any>
/** null: no restriction (a value without words matches everything, as in SQL). */
type Hits = ReadonlySet<string> | null

/**
 * The `where` hooks that answer text predicates from the search index (docs/search-and-indexing.md,
 * "`where` text predicates on assets"): every
 * predicate is searched first, then the SQL query keeps the rows whose id is among the hits, combined
 * with the SQL predicates. Results are as fresh as the index (eventually consistent, seconds).
 *
 * Words match whole words, case- and diacritic-insensitively; as in Backlot, singular and plural
 * alike and stop words ignored (the terms of `wordTerms`). `labels INCLUDES` takes the assets whose
 * label full names contain the phrase, then the resource's own hook keeps the exact label matches.
 */
export async function indexedWhereHooks (ast: WhereAst, fields: FieldMap, options: TextSearchOptions): Promise<WhereHooks> {
  const hits = new Map<string, Hits>()
  const wanted = new Map<string, { field: TextField, value: string }>()
  const spoken = new Map<string, string>()
  for (const predicate of textPredicates(ast, fields)) {
    if (predicate.field === TRANSCRIPT) { spoken.set(keyOf(TRANSCRIPT, predicate.value), predicate.value); continue }
    if (!(TEXT_FIELDS as readonly string[]).includes(predicate.field)) continue
    wanted.set(keyOf(predicate.field, predicate.value), { field: predicate.field as TextField, value: predicate.value })
  }
  await mapLimit([...wanted], 4, async ([key, { field, value }]) => {
    hits.set(key, field === 'labels' ? await searchPhrase(options, value) : await searchWords(options, field, value))
  })
  await mapLimit([...spoken], 4, async ([key, value]) => { hits.set(key, await searchTranscripts(options, value)) })
  const restrict = (eb: Builder, found: Hits | undefined): Expression<SqlBool> => restrictTo(eb, options, found ?? new Set())
  const base = options.base ?? {}
  return {
    ...base,
    // A word field the index does not hold stays in SQL.
    word: (eb, field, value) => hits.has(keyOf(field.name, value)) ? restrict(eb, hits.get(keyOf(field.name, value))) : matchWords(eb, field, value),
    labelsIncludes: (eb, name) => {
      const found = restrict(eb, hits.get(keyOf('labels', name)))
      return base.labelsIncludes === undefined ? found : eb.and([found, base.labelsIncludes(eb, name)])
    }
  }
}

/**
 * The ids holding every term of `value`, each term as written, singular or plural: `idsOf` answers one
 * variant's ids. Null when `value` has no term.
 */
async function everyTerm (value: string, idsOf: (variant: string) => Promise<Iterable<string>>): Promise<Hits> {
  const terms = wordTerms(value)
  if (terms.length === 0) return null
  let result: Set<string> | undefined
  for (const term of terms) {
    const found = new Set<string>()
    for (const variant of new Set([term, `${term}s`, `${term}es`])) {
      for (const id of await idsOf(variant)) found.add(id)
    }
    result = result === undefined ? found : new Set([...result].filter((id) => found.has(id)))
    if (result.size === 0) break
  }
  return result ?? null
}

/** Every term must appear; each term as written, singular or plural. */
async function searchWords (options: TextSearchOptions, field: TextField, value: string): Promise<Hits> {
  return await everyTerm(value, async (variant) => await options.store.search(options.accountId, { type: 'asset', clauses: [{ field, text: variant }] }))
}

/** The `where` field answered from the transcripts' cues: assets with a cue holding every word. */
const TRANSCRIPT = 'transcript'

/** Assets whose captions say every term (each singular or plural) within one cue. */
async function searchTranscripts (options: TextSearchOptions, value: string): Promise<Hits> {
  return await everyTerm(value, async (variant) => {
    const ids = new Set<string>()
    let after: string | undefined
    for (;;) {
      const page = await options.store.searchTranscripts(options.accountId, { text: variant, after, limit: 1000 })
      for (const hit of page) ids.add(hit.asset_id)
      if (page.length < 1000) return ids
      after = page[page.length - 1].key
    }
  })
}

async function searchPhrase (options: TextSearchOptions, value: string): Promise<Hits> {
  return new Set(await options.store.search(options.accountId, { type: 'asset', clauses: [{ field: 'labels', text: value }] }))
}

/**
 * `id IN (hits)`, padded to one of a few lengths (`inList`: every hit count would be an SQL text, and a
 * statement, of its own). Hits can number in the hundred thousands, beyond either engine's limit of bound
 * parameters, so large sets go as one parameter: a dialect branch, named as such.
 */
function restrictTo (eb: Builder, options: TextSearchOptions, hits: Hits): Expression<SqlBool> {
  if (hits === null) return sql<SqlBool>`1 = 1`
  if (hits.size === 0) return sql<SqlBool>`1 = 0`
  const ids = [...hits]
  if (ids.length <= 500) return eb(eb.ref(options.idColumn), 'in', inList(ids))
  if (options.dialect === 'postgres') return sql<SqlBool>`${sql.ref(options.idColumn)} = ANY(${ids}::text[])`
  return sql<SqlBool>`${sql.ref(options.idColumn)} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`
}

function keyOf (field: string, value: string): string {
  return `${field}\u0000${value}`
}
