import type { CompareOp, FieldRef, WhereAst, WhereClause, WhereLiteral } from './ast.ts'
import { WhereSyntaxError } from './errors.ts'
import { tokenize, type Token } from './tokenizer.ts'

/**
 * Guards against expressions that would make one request expensive (each value is a bound parameter
 * and each clause a condition); far beyond what a hand-written or generated query needs.
 */
export const WHERE_LIMITS = { clauses: 100, listValues: 1000 } as const

// Reserved wherever a field name is expected, so `name='a' AND AND` fails at the second AND.
const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'INCLUDES'])
const OPERATORS = 'an operator (=, !=, <, <=, >, >=, IN or INCLUDES)'

/**
 * Parses a `where` expression (docs/resources.md, "Assets"):
 *
 *   where   := ε | clause (AND clause)*
 *   clause  := field op literal | field IN '(' literal (',' literal)* ')' | field INCLUDES literal
 *   literal := 'string' | number
 *
 * Keywords are case-insensitive. An empty expression parses to no clauses (no filter).
 * @throws WhereSyntaxError pointing at the offending position.
 */
export function parseWhere (source: string): WhereAst {
  return new Parser(tokenize(source)).where()
}

class Parser {
  private index = 0

  constructor (private readonly tokens: Token[]) {}

  where (): WhereAst {
    const clauses: WhereClause[] = []
    if (this.peek().kind === 'end') return { clauses }
    clauses.push(this.clause('Expected a field name'))
    for (;;) {
      const token = this.next()
      if (token.kind === 'end') return { clauses }
      const keyword = keywordOf(token)
      if (keyword === 'OR') throw new WhereSyntaxError('OR is not supported (only AND can join clauses)', token.position)
      if (keyword !== 'AND') throw new WhereSyntaxError('Expected AND or the end of the expression', token.position)
      if (clauses.length === WHERE_LIMITS.clauses) {
        throw new WhereSyntaxError(`Too many clauses (at most ${WHERE_LIMITS.clauses})`, token.position)
      }
      clauses.push(this.clause('Expected a field name after AND'))
    }
  }

  private clause (expectedField: string): WhereClause {
    const token = this.next()
    if (token.kind !== 'word' || keywordOf(token) !== undefined) throw new WhereSyntaxError(expectedField, token.position)
    const field: FieldRef = { name: token.text, position: token.position }
    const op = this.next()
    if (op.kind === 'op') {
      return { type: 'compare', field, op: op.text as CompareOp, value: this.literal(`after '${op.text}'`) }
    }
    const keyword = keywordOf(op)
    if (keyword === 'IN') return { type: 'in', field, values: this.list() }
    if (keyword === 'INCLUDES') return { type: 'includes', field, value: this.literal('after INCLUDES') }
    throw new WhereSyntaxError(`Expected ${OPERATORS} after '${field.name}'`, op.position)
  }

  private list (): WhereLiteral[] {
    const open = this.next()
    if (open.kind !== '(') throw new WhereSyntaxError('Expected \'(\' after IN', open.position)
    const values = [this.literal('after \'(\'')]
    for (;;) {
      const token = this.next()
      if (token.kind === ')') return values
      if (token.kind !== ',') throw new WhereSyntaxError('Expected \',\' or \')\' in the IN list', token.position)
      if (values.length === WHERE_LIMITS.listValues) {
        throw new WhereSyntaxError(`Too many values in the IN list (at most ${WHERE_LIMITS.listValues})`, token.position)
      }
      values.push(this.literal('after \',\''))
    }
  }

  private literal (after: string): WhereLiteral {
    const token = this.next()
    if (token.kind !== 'string' && token.kind !== 'number') {
      throw new WhereSyntaxError(`Expected a value ${after}`, token.position)
    }
    return { kind: token.kind, text: token.text, position: token.position }
  }

  private peek (): Token {
    return this.tokens[this.index]
  }

  private next (): Token {
    const token = this.tokens[this.index]
    // `end` is sticky: reading past it keeps answering `end`, so callers need no bounds checks.
    if (token.kind !== 'end') this.index++
    return token
  }
}

function keywordOf (token: Token): string | undefined {
  if (token.kind !== 'word') return undefined
  const upper = token.text.toUpperCase()
  return KEYWORDS.has(upper) ? upper : undefined
}
