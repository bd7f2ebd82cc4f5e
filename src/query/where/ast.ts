/** The syntax tree of a `where` expression. Positions are 0-based offsets into the original string. */

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>='

/**
 * A literal as written. Numbers keep their source text (`600`, `-1.5`) so a text field compared with an
 * unquoted number (`metadata.year=2004`) sees exactly what the client typed.
 */
export interface WhereLiteral {
  kind: 'string' | 'number'
  text: string
  position: number
}

/** A field as written: `duration`, `time_restrictions.start_date`, `metadata.rating`. */
export interface FieldRef {
  name: string
  position: number
}

export type WhereClause =
  | { type: 'compare', field: FieldRef, op: CompareOp, value: WhereLiteral }
  | { type: 'in', field: FieldRef, values: WhereLiteral[] }
  | { type: 'includes', field: FieldRef, value: WhereLiteral }

/** Clauses joined by AND; no clauses means no filter. */
export interface WhereAst {
  clauses: WhereClause[]
}
