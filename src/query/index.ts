/**
 * The list query language: `where` (parse, then compile to a Kysely filter), `orderby` and `include`.
 * The language is described in docs/resources.md ("Assets"), with the habits of the API family's clients.
 *
 * @example
 * const ast = parseWhere(query.where ?? '')          // WhereSyntaxError → 400 where_invalid
 * const filter = compileWhere(ast, ASSET_FIELDS, {    // WhereError for unknown fields and bad values
 *   labelsIncludes: (eb, name) => …, metadata: (eb, key, op, value) => …
 * })
 * db.selectFrom('assets').where('account_id', '=', accountId).where(filter)
 */
export type { CompareOp, WhereAst, WhereLiteral } from './where/ast.ts'
export { WhereError, WhereSyntaxError } from './where/errors.ts'
export { tokenize } from './where/tokenizer.ts'
export { parseWhere, WHERE_LIMITS } from './where/parser.ts'
export { compileWhere, type FieldMap, type WhereFilter, type WhereHooks } from './where/compile.ts'
export { matchWords, wordTerms } from './where/words.ts'
export { dateSpan } from './where/dates.ts'
export { textPredicates } from './where/text-predicates.ts'
export { parseOrderBy, type DefaultOrderField } from './orderby.ts'
export { parseInclude, type DefaultInclude } from './include.ts'
