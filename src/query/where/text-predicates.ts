import type { WhereAst } from './ast.ts'
import { lookupField, type FieldMap } from './compile.ts'

/** A clause answered by text search: a word field, or `labels INCLUDES`. */
export interface TextPredicate {
  /** The API field (`name`, `description`) or `labels`. */
  field: string
  value: string
  position: number
}

/**
 * The text predicates of a parsed `where`, for the two callers that treat them apart: credits (an
 * asset query with one costs 2, docs/credits-and-cache.md) and the search index, which must run them before the
 * synchronous `compileWhere` hooks can answer from its results.
 */
export function textPredicates (ast: WhereAst, fields: FieldMap): TextPredicate[] {
  return ast.clauses.flatMap((clause) => {
    const found = lookupField(fields, clause.field.name)
    const isWord = found?.[1].type === 'word'
    const isLabels = found === undefined && clause.field.name.toLowerCase() === 'labels'
    if (!isWord && !isLabels) return []
    const field = isWord ? found![0] : 'labels'
    const values = clause.type === 'in' ? clause.values : [clause.value]
    return values.map((value) => ({ field, value: value.text, position: value.position }))
  })
}
