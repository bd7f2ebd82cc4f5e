import type { Expression, ExpressionBuilder, SqlBool } from 'kysely'

/** A field whose text is matched by words (`name`, `description`). */
export interface WordField {
  /** The API field name, as the field map spells it. */
  name: string
  column: string
  /** The column already holds lowercase text, so no `lower()` is applied (see FieldSpec). */
  lowercased?: boolean
}

// The API family ignores stop words in text search; the list is the usual English core.
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'of', 'on', 'or', 'that', 'the', 'this', 'to', 'with'])

/**
 * The terms a word query must all find: lowercase runs of letters and digits, stop words dropped
 * (unless nothing else is left, so `name='The The'` still means something), duplicates removed, and a
 * plural `s` cut so `videos` also finds "video" — Backlot matches singular and plural alike.
 */
export function wordTerms (value: string): string[] {
  const words = value.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '')
  const kept = words.filter((word) => !STOP_WORDS.has(word))
  return [...new Set((kept.length > 0 ? kept : words).map(singular))]
}

function singular (word: string): string {
  return word.length >= 4 && word.endsWith('s') && !/(ss|us|is)$/.test(word) ? word.slice(0, -1) : word
}

/**
 * The default word match, in SQL both databases run alike: every term must occur in the lowercased
 * column (`lower(col) LIKE '%term%'`), so a term also finds longer words that contain it. Terms hold
 * only letters and digits, so they never contain LIKE wildcards and need no ESCAPE clause. A value
 * without any word matches every row, as "every term appears" holds for no terms.
 * The search-index issue replaces this through `WhereHooks.word`.
 */
export function matchWords (eb: ExpressionBuilder<any, any>, field: WordField, value: string): Expression<SqlBool> {
  const column = field.lowercased === true ? eb.ref(field.column) : eb.fn<string>('lower', [eb.ref(field.column)])
  return eb.and(wordTerms(value).map((term) => eb(column, 'like', `%${term}%`)))
}
