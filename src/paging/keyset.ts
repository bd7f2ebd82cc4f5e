import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { KeyValue } from './page-tokens.ts'

export interface KeyColumn {
  column: string
  direction: 'asc' | 'desc'
}

/**
 * The keyset condition "strictly after `values`" for an ordering over `columns` (the last column must
 * be unique, e.g. the id), so each page costs an index seek, not an offset scan. When every column
 * sorts the same way it is a row-value comparison, `(a, id) > (?, ?)`, which SQLite and PostgreSQL
 * both turn into one seek on an index over those columns (an OR-chain is not: with many equal leading
 * values it scans them all). Mixed directions need the OR-chain.
 */
export function afterPosition<DB, TB extends keyof DB> (eb: ExpressionBuilder<DB, TB>, columns: KeyColumn[], values: KeyValue[]): Expression<SqlBool> {
  const direction = columns[0]?.direction
  if (columns.every((col) => col.direction === direction)) {
    const refs = sql.join(columns.map((col) => sql.ref(col.column)))
    return sql<SqlBool>`(${refs}) ${direction === 'asc' ? sql`>` : sql`<`} (${sql.join(values)})`
  }
  const ors: Array<Expression<SqlBool>> = columns.map((col, i) => {
    const ands: Array<Expression<SqlBool>> = columns.slice(0, i).map((prev, j) =>
      sql<SqlBool>`${sql.ref(prev.column)} = ${values[j]}`)
    const op = col.direction === 'asc' ? sql`>` : sql`<`
    ands.push(sql<SqlBool>`${sql.ref(col.column)} ${op} ${values[i]}`)
    return eb.and(ands)
  })
  return eb.or(ors)
}
