import { validationError } from '../../errors/api-error.ts'
import { DIMENSIONS, type Dimension } from '../model.ts'

/**
 * The `filters` language of v3 reports (docs/analytics.md, "Filters"):
 *
 *   or     := and (('|' | OR) and)*
 *   and    := atom ((';' | ',' | AND) atom)*
 *   atom   := '(' or ')' | dimension ('==' | '!=') quoted
 *   quoted := '…' | "…"   (a backslash escapes the next character)
 *
 * `AND`/`OR` are case-insensitive words; `;` binds tighter than `|`. Errors name a 1-based position.
 */
export type FilterNode =
  | { kind: 'compare', dimension: Dimension, op: '==' | '!=', value: string }
  | { kind: 'and' | 'or', items: FilterNode[] }

export const MAX_FILTER_LENGTH = 2000
export const MAX_COMPARISONS = 50

type Token =
  | { type: '(' | ')' | 'and' | 'or' | '==' | '!=' | 'end', at: number }
  | { type: 'word' | 'string', at: number, text: string }

function fail (message: string): never {
  const full = `filters: ${message}`
  throw validationError(full, { filters: [full] })
}

function tokenize (text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    const at = i + 1
    if (/\s/.test(c)) { i++; continue }
    if (c === '(' || c === ')') { tokens.push({ type: c, at }); i++; continue }
    if (c === ';' || c === ',') { tokens.push({ type: 'and', at }); i++; continue }
    if (c === '|') { tokens.push({ type: 'or', at }); i++; continue }
    if ((c === '=' || c === '!') && text[i + 1] === '=') { tokens.push({ type: `${c}=`, at }); i += 2; continue }
    if (c === "'" || c === '"') {
      let value = ''
      let j = i + 1
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) j++
        value += text[j++]
      }
      if (j >= text.length) fail(`unterminated value starting at position ${at}.`)
      tokens.push({ type: 'string', at, text: value })
      i = j + 1
      continue
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))
    if (word === null) fail(`unexpected character '${c}' at position ${at}.`)
    const upper = word[0].toUpperCase()
    tokens.push(upper === 'AND' || upper === 'OR' ? { type: upper === 'AND' ? 'and' : 'or', at } : { type: 'word', at, text: word[0] })
    i += word[0].length
  }
  tokens.push({ type: 'end', at: text.length + 1 })
  return tokens
}

function describe (token: Token): string {
  if (token.type === 'end') return `end of input at position ${token.at}`
  if (token.type === 'word' || token.type === 'string') return `'${token.text}' at position ${token.at}`
  return `'${token.type === 'and' ? ';' : token.type === 'or' ? '|' : token.type}' at position ${token.at}`
}

/** Parses `filters`; an empty text means no filter. Throws a 400 that says what was expected where. */
export function parseFilters (text: string): FilterNode | undefined {
  if (text.trim() === '') return undefined
  if (text.length > MAX_FILTER_LENGTH) fail(`at most ${MAX_FILTER_LENGTH} characters.`)
  const tokens = tokenize(text)
  let pos = 0
  let comparisons = 0
  const peek = (): Token => tokens[pos]

  const parseOr = (): FilterNode => {
    const items = [parseAnd()]
    while (peek().type === 'or') { pos++; items.push(parseAnd()) }
    return items.length === 1 ? items[0] : { kind: 'or', items }
  }
  const parseAnd = (): FilterNode => {
    const items = [parseAtom()]
    while (peek().type === 'and') { pos++; items.push(parseAtom()) }
    return items.length === 1 ? items[0] : { kind: 'and', items }
  }
  const parseAtom = (): FilterNode => {
    const token = tokens[pos++]
    if (token.type === '(') {
      const inner = parseOr()
      const close = tokens[pos++]
      if (close.type !== ')') fail(`expected ')' but found ${describe(close)}.`)
      return inner
    }
    if (token.type !== 'word') fail(`expected a dimension name but found ${describe(token)}.`)
    if (!(DIMENSIONS as readonly string[]).includes(token.text)) fail(`unknown dimension '${token.text}' at position ${token.at}; use one of ${DIMENSIONS.join(', ')}.`)
    const op = tokens[pos++]
    if (op.type !== '==' && op.type !== '!=') fail(`expected == or != but found ${describe(op)}.`)
    const value = tokens[pos++]
    if (value.type !== 'string') fail(`expected a quoted value but found ${describe(value)}.`)
    if (++comparisons > MAX_COMPARISONS) fail(`at most ${MAX_COMPARISONS} comparisons.`)
    const dimension = token.text as Dimension
    // Country codes are stored in upper case; accept 'us' as well.
    return { kind: 'compare', dimension, op: op.type, value: dimension === 'country' ? value.text.toUpperCase() : value.text }
  }

  const tree = parseOr()
  if (peek().type !== 'end') fail(`unexpected ${describe(peek())}.`)
  return tree
}

/** A canonical text of the tree, for the page token's query fingerprint. */
export function filterKey (node: FilterNode | undefined): string {
  if (node === undefined) return ''
  if (node.kind === 'compare') return `${node.dimension}${node.op}${JSON.stringify(node.value)}`
  return `${node.kind}(${node.items.map(filterKey).join(',')})`
}

/** Every dimension the filter mentions. */
export function filterDimensions (node: FilterNode | undefined): Set<Dimension> {
  const found = new Set<Dimension>()
  const walk = (n: FilterNode): void => {
    if (n.kind === 'compare') found.add(n.dimension)
    else n.items.forEach(walk)
  }
  if (node !== undefined) walk(node)
  return found
}
