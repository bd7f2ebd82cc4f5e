/**
 * The list query language: `where` (parse, then compile to a Kysely filter), `orderby` and `include`.
 * Product spec §10; grammar and client habits in backlot-api.md §2.
 *
 * @example
 * const ast = parseWhere(query.where ?? '')          // WhereSyntaxError → 400 where_invalid
 * const filter = compileWhere(ast, ASSET_FIELDS, {    // WhereError for unknown fields and bad values
 *   labelsIncludes: (eb, name) => …, metadata: (eb, key, op, value) => …
 * })
 * db.selectFrom('assets').where('account_id', '=', accountId).where(filter)
 */
export type { CompareOp, FieldRef, WhereAst, WhereClause, WhereLiteral } from './where/ast.ts'
export { WhereError, WhereSyntaxError } from './where/errors.ts'
export { tokenize, type Token, type TokenKind } from './where/tokenizer.ts'
export { parseWhere, WHERE_LIMITS } from './where/parser.ts'
export {
  compileWhere,
  lookupField,
  type Condition,
  type FieldMap,
  type FieldSpec,
  type FieldType,
  type WhereFilter,
  type WhereHooks
} from './where/compile.ts'
export { matchWords, wordTerms, type WordField } from './where/words.ts'
export { dateSpan, type DateSpan } from './where/dates.ts'
export { textPredicates, type TextPredicate } from './where/text-predicates.ts'
export { parseOrderBy, DEFAULT_ORDER_FIELDS, type DefaultOrderField, type OrderBy, type OrderByOptions, type SortDirection } from './orderby.ts'
export { parseInclude, DEFAULT_INCLUDES, type DefaultInclude } from './include.ts'
