import type { AssetWhereField } from '../generated/where.ts'

export type CompareOperator = '=' | '!=' | '<' | '<=' | '>' | '>='
export type Literal = string | number | Date

/** A field of the asset `where` language that compares with a value: a named field, or `metadata.<name>`. */
export type ValueField = AssetWhereField | `metadata.${string}`
/** Every field: the value fields, and `labels`, which takes `INCLUDES` only. */
export type WhereField = ValueField | 'labels'

// The characters a field name may hold unquoted; a metadata name with others is written quoted.
const WORD = /^[A-Za-z0-9_.\-@#$%&^*?]+$/

/**
 * A value as the `where` language reads it: numbers as they are, everything else in single quotes,
 * a quote doubled and a backslash escaped, so no value can end the string early or change the clause.
 * Dates are written as ISO 8601 UTC.
 * @example quote("Rock 'n' Roll") // "'Rock ''n'' Roll'"
 */
export function quote (value: Literal): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Cannot compare with ${value}.`)
    return String(value)
  }
  const text = value instanceof Date ? value.toISOString() : value
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
}

function fieldName (field: string): string {
  if (!field.startsWith('metadata.')) return field
  const name = field.slice('metadata.'.length)
  return WORD.test(name) ? field : `metadata.${quote(name)}`
}

/**
 * A `where` expression for asset lists, built clause by clause and joined by AND; its `toString()` is
 * what the server reads. Pass it (or any string) as `where`.
 * @example
 * const filter = where('status', '=', 'live').and('labels', 'INCLUDES', 'Sports').and('asset_type', 'IN', ['video', 'audio'])
 * for await (const asset of client.assets.list({ where: filter })) console.log(asset.name)
 */
export class Where {
  readonly #clauses: string[]

  constructor (clauses: readonly string[] = []) {
    this.#clauses = [...clauses]
  }

  and (field: ValueField, operator: CompareOperator, value: Literal): Where
  and (field: ValueField, operator: 'IN', values: readonly Literal[]): Where
  and (field: 'labels', operator: 'INCLUDES', value: string): Where
  and (field: WhereField, operator: CompareOperator | 'IN' | 'INCLUDES', value: Literal | readonly Literal[]): Where {
    return new Where([...this.#clauses, clause(field, operator, value)])
  }

  toString (): string {
    return this.#clauses.join(' AND ')
  }
}

export function where (field: ValueField, operator: CompareOperator, value: Literal): Where
export function where (field: ValueField, operator: 'IN', values: readonly Literal[]): Where
export function where (field: 'labels', operator: 'INCLUDES', value: string): Where
export function where (field: WhereField, operator: CompareOperator | 'IN' | 'INCLUDES', value: Literal | readonly Literal[]): Where {
  return new Where([clause(field, operator, value)])
}

function clause (field: WhereField, operator: CompareOperator | 'IN' | 'INCLUDES', value: Literal | readonly Literal[]): string {
  const name = fieldName(field)
  if (operator !== 'IN') return `${name} ${operator} ${quote(value as Literal)}`
  const values = value as readonly Literal[]
  if (values.length === 0) throw new RangeError('IN needs at least one value.')
  return `${name} IN (${values.map(quote).join(',')})`
}
