import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { KeyValue } from './page-tokens.ts'

export interface KeyColumn {
  column: string
  direction: 'asc' | 'desc'
}

/**
 * The keyset condition "strictly after `values`" for an ordering over `columns` (the last column must
 * be unique, e.g. the id). Written as an OR-chain so mixed directions work the same on SQLite and
 * PostgreSQL; each page costs an index seek, not an offset scan.
 */
export function afterPosition<DB, TB extends keyof DB> (eb: ExpressionBuilder<DB, TB>, columns: KeyColumn[], values: KeyValue[]): Expression<SqlBool> {
  const ors: Array<Expression<SqlBool>> = columns.map((col, i) => {
    const ands: Array<Expression<SqlBool>> = columns.slice(0, i).map((prev, j) =>
      sql<SqlBool>`${sql.ref(prev.column)} = ${values[j]}`)
    const op = col.direction === 'asc' ? sql`>` : sql`<`
    ands.push(sql<SqlBool>`${sql.ref(col.column)} ${op} ${values[i]}`)
    return eb.and(ands)
  })
  return eb.or(ors)
}
