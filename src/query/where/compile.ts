import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { CompareOp, FieldRef, WhereAst, WhereClause, WhereLiteral } from './ast.ts'
import { dateSpan, type DateSpan } from './dates.ts'
import { WhereError } from './errors.ts'
import { matchWords, type WordField } from './words.ts'

/**
 * How values of a field compare:
 * - `text`: exact text (`embed_code`, `external_id`); all six operators and IN compare as text.
 * - `word`: words, case-insensitively, every term must appear (`name`, `description`); =, !=, IN, INCLUDES.
 * - `number`: numerically; a quoted number (`duration>'600'`) is accepted too.
 * - `date`: ISO 8601 values, compared with the stored ISO text over the span the value covers (dates.ts).
 * - `enum`: one of `values`, matched case-insensitively and bound in its canonical spelling; =, !=, IN.
 */
export type FieldType = 'text' | 'word' | 'number' | 'date' | 'enum'

export interface FieldSpec {
  /** Column to compare, optionally table-qualified (`assets.name`). */
  column: string
  type: FieldType
  /** The allowed values of an `enum` field. */
  values?: readonly string[]
  /** Rows where the column is NULL match every comparison: "assets with no flight time always match date queries". */
  nullMatches?: boolean
  /**
   * `word` fields: the column already holds lowercase text (written with `toLowerCase()`), so no SQL
   * `lower()` is applied. Needed for non-ASCII letters on SQLite, whose `lower()` folds ASCII only.
   */
  lowercased?: boolean
}

/** API field name → how to filter on it. Field names match case-insensitively; metadata keys do not. */
export type FieldMap = Readonly<Record<string, FieldSpec>>

export type Condition = Expression<SqlBool>
type Builder = ExpressionBuilder<any, any>

/** Predicates the resource supplies; `labels` and `metadata.<key>` are unknown fields without them. */
export interface WhereHooks {
  /** Word match for `word` fields; defaults to `matchWords` (LIKE per term). */
  word?: (eb: Builder, field: WordField, value: string) => Condition
  /** `labels INCLUDES 'name'`. */
  labelsIncludes?: (eb: Builder, name: string) => Condition
  /** `metadata.key op 'value'`; metadata values are strings, so `value` is the text as written. */
  metadata?: (eb: Builder, key: string, op: CompareOp, value: string) => Condition
}

/** A filter for Kysely's `.where()`; safe to call for several queries (e.g. a page and a count). */
export type WhereFilter = (eb: Builder) => Condition

type Target =
  | { kind: 'column', name: string, spec: FieldSpec }
  | { kind: 'labels', includes: NonNullable<WhereHooks['labelsIncludes']> }
  | { kind: 'metadata', key: string, compare: NonNullable<WhereHooks['metadata']> }

const METADATA = 'metadata.'

/**
 * Checks a parsed `where` against the fields a resource offers and compiles it to a Kysely filter:
 * `db.selectFrom('assets').where(compileWhere(ast, fields, hooks))`. Every value is a bound parameter.
 * All checks run here, so a bad field or value fails before any SQL is built.
 * @throws WhereError naming the field or value and its position.
 */
export function compileWhere (ast: WhereAst, fields: FieldMap, hooks: WhereHooks = {}): WhereFilter {
  const builders = ast.clauses.map((clause) => compileClause(clause, fields, hooks))
  return (eb) => builders.length === 1 ? builders[0](eb) : eb.and(builders.map((build) => build(eb)))
}

/** Finds the field map entry for a name as written: exact first, then case-insensitively. */
export function lookupField (fields: FieldMap, name: string): [string, FieldSpec] | undefined {
  if (Object.hasOwn(fields, name)) return [name, fields[name]]
  const lower = name.toLowerCase()
  const key = Object.keys(fields).find((candidate) => candidate.toLowerCase() === lower)
  return key === undefined ? undefined : [key, fields[key]]
}

function compileClause (clause: WhereClause, fields: FieldMap, hooks: WhereHooks): WhereFilter {
  const target = resolve(clause.field, fields, hooks)
  if (target.kind === 'labels') {
    const { includes } = target
    if (clause.type !== 'includes') throw new WhereError('labels takes only INCLUDES, as in labels INCLUDES \'Sports\'', clause.field.position)
    return (eb) => includes(eb, clause.value.text)
  }
  if (target.kind === 'metadata') {
    const { key, compare } = target
    if (clause.type === 'includes') throw new WhereError(`${clause.field.name} does not support INCLUDES`, clause.field.position)
    if (clause.type === 'in') return (eb) => eb.or(clause.values.map((value) => compare(eb, key, '=', value.text)))
    return (eb) => compare(eb, key, clause.op, clause.value.text)
  }
  const { name, spec } = target
  const filter = spec.type === 'word' ? compileWord(clause, name, spec, hooks) : compileValue(clause, name, spec)
  if (spec.nullMatches !== true) return filter
  return (eb) => eb.or([eb(eb.ref(spec.column), 'is', null), filter(eb)])
}

function resolve (field: FieldRef, fields: FieldMap, hooks: WhereHooks): Target {
  const found = lookupField(fields, field.name)
  if (found !== undefined) return { kind: 'column', name: found[0], spec: found[1] }
  const lower = field.name.toLowerCase()
  if (lower === 'labels' && hooks.labelsIncludes !== undefined) return { kind: 'labels', includes: hooks.labelsIncludes }
  if (lower.startsWith(METADATA) && hooks.metadata !== undefined) {
    const key = field.name.slice(METADATA.length)
    if (key === '') throw new WhereError('Expected a metadata name after \'metadata.\'', field.position + METADATA.length)
    return { kind: 'metadata', key, compare: hooks.metadata }
  }
  const known = [
    ...Object.keys(fields),
    ...(hooks.labelsIncludes !== undefined ? ['labels'] : []),
    ...(hooks.metadata !== undefined ? ['metadata.<name>'] : [])
  ]
  throw new WhereError(`Unknown field '${field.name}' (fields: ${known.join(', ')})`, field.position)
}

function compileWord (clause: WhereClause, name: string, spec: FieldSpec, hooks: WhereHooks): WhereFilter {
  const word = hooks.word ?? matchWords
  const field: WordField = { name, column: spec.column, lowercased: spec.lowercased }
  if (clause.type === 'in') return (eb) => eb.or(clause.values.map((value) => word(eb, field, value.text)))
  if (clause.type === 'includes' || clause.op === '=') return (eb) => word(eb, field, clause.value.text)
  if (clause.op === '!=') return (eb) => eb.or([eb(eb.ref(spec.column), 'is', null), eb.not(word(eb, field, clause.value.text))])
  throw new WhereError(`${name} matches words and takes =, !=, IN or INCLUDES, not ${clause.op}`, clause.field.position)
}

function compileValue (clause: WhereClause, name: string, spec: FieldSpec): WhereFilter {
  if (clause.type === 'includes') {
    throw new WhereError(`${name} does not support INCLUDES (it works on labels and on word fields)`, clause.field.position)
  }
  if (spec.type === 'enum' && clause.type === 'compare' && clause.op !== '=' && clause.op !== '!=') {
    throw new WhereError(`${name} takes =, != or IN, not ${clause.op}`, clause.field.position)
  }
  const column = spec.column
  if (spec.type === 'date') {
    if (clause.type === 'in') {
      const spans = clause.values.map((value) => toSpan(name, value))
      return (eb) => eb.or(spans.map((span) => compareSpan(eb, column, '=', span)))
    }
    const span = toSpan(name, clause.value)
    return (eb) => compareSpan(eb, column, clause.op, span)
  }
  if (clause.type === 'in') {
    const values = clause.values.map((value) => convert(name, spec, value))
    return (eb) => eb(eb.ref(column), 'in', values.map((value) => bind(value)))
  }
  const value = convert(name, spec, clause.value)
  const { op } = clause
  if (op === '!=') return (eb) => eb.or([eb(eb.ref(column), 'is', null), eb(eb.ref(column), '<>', bind(value))])
  return (eb) => eb(eb.ref(column), op, bind(value))
}

const NUMBER = /^-?\d+(\.\d+)?$/

/** A literal as the field's type wants it; type mismatches are reported at the value. */
function convert (name: string, spec: FieldSpec, literal: WhereLiteral): string | number {
  if (spec.type === 'number') {
    if (!NUMBER.test(literal.text)) throw new WhereError(`${name} takes a number, not '${literal.text}'`, literal.position)
    return Number(literal.text)
  }
  if (spec.type === 'enum') {
    const values = spec.values ?? []
    const canonical = values.find((value) => value.toLowerCase() === literal.text.toLowerCase())
    if (canonical === undefined) throw new WhereError(`${name} takes one of ${values.join(', ')}, not '${literal.text}'`, literal.position)
    return canonical
  }
  return literal.text
}

/**
 * Numbers are bound as parameters whose type PostgreSQL infers from the column, so a fraction or an
 * unsafe integer against an integer column would fail there; those are cast to double precision.
 */
function bind (value: string | number): string | number | Expression<number> {
  if (typeof value === 'string' || Number.isSafeInteger(value)) return value
  return sql<number>`cast(${value} as double precision)`
}

function toSpan (name: string, literal: WhereLiteral): DateSpan {
  const span = literal.kind === 'string' ? dateSpan(literal.text) : undefined
  if (span === undefined) {
    throw new WhereError(`${name} takes an ISO 8601 date such as '2011-06-01T00:00:00Z', not '${literal.text}'`, literal.position)
  }
  return span
}

/** Compares a stored ISO timestamp with the span a value covers: `=` is "within", `<=` "before its end", … */
function compareSpan (eb: Builder, column: string, op: CompareOp, span: DateSpan): Condition {
  const ref = eb.ref(column)
  const beforeEnd = span.toInclusive ? '<=' : '<'
  const afterEnd = span.toInclusive ? '>' : '>='
  switch (op) {
    case '=': return eb.and([eb(ref, '>=', span.from), eb(ref, beforeEnd, span.to)])
    case '!=': return eb.or([eb(ref, 'is', null), eb(ref, '<', span.from), eb(ref, afterEnd, span.to)])
    case '<': return eb(ref, '<', span.from)
    case '<=': return eb(ref, beforeEnd, span.to)
    case '>': return eb(ref, afterEnd, span.to)
    case '>=': return eb(ref, '>=', span.from)
  }
}
