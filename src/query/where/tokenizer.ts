import { WhereSyntaxError } from './errors.ts'

export type TokenKind = 'word' | 'string' | 'number' | 'op' | '(' | ')' | ',' | 'end'

/**
 * One token. `text` is the decoded content: a string without its quotes and escapes, a word (field
 * name or keyword) as written, a number's source text.
 */
export interface Token {
  kind: TokenKind
  text: string
  position: number
}

// `+` counts as whitespace outside quotes: clients such as kuu's send `labels+INCLUDES+'Music'`
// URL-encoded (%2B), so the server receives literal plus signs where spaces were meant.
const SPACE = /[ \t\r\n+]/
const WORD_START = /[A-Za-z_]/
// Field names plus the metadata-name alphabet (src/resources/kit/metadata.ts) minus the characters that are
// syntax here (`!`, `(`, `)`); such keys are written as a quoted segment, `metadata.'odd(key)'`.
const WORD_PART = /[A-Za-z0-9_.\-@#$%&^*?]/
const NUMBER_PART = /[A-Za-z0-9_.]/
const NUMBER = /^-?\d+(\.\d+)?$/
const DIGIT = /[0-9]/
// An unquoted date or date-time (`created_at > 2026-11-01`): tokenized as numbers it would fail further
// on with a message about AND; named here, it gets one that says how to write it.
const UNQUOTED_DATE = /\d{4}-\d{1,2}-\d{1,2}(?:T\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[-]\d{2}:?\d{2})?)?/y

/** Splits a `where` expression into tokens; the last one is always `end`. */
export function tokenize (source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < source.length) {
    const c = source[i]
    if (SPACE.test(c)) {
      i++
    } else if (c === '\'' || c === '"') {
      const { text, end } = readQuoted(source, i)
      tokens.push({ kind: 'string', text, position: i })
      i = end
    } else if (WORD_START.test(c)) {
      const start = i
      let text = ''
      while (i < source.length) {
        if (WORD_PART.test(source[i])) {
          text += source[i++]
        } else if (text.endsWith('.') && (source[i] === '\'' || source[i] === '"')) {
          const quoted = readQuoted(source, i)
          text += quoted.text
          i = quoted.end
        } else {
          break
        }
      }
      tokens.push({ kind: 'word', text, position: start })
    } else if (DIGIT.test(c) || (c === '-' && DIGIT.test(source[i + 1] ?? ''))) {
      UNQUOTED_DATE.lastIndex = i
      const date = UNQUOTED_DATE.exec(source)?.[0]
      if (date !== undefined) throw new WhereSyntaxError(`Dates are quoted strings: write '${date}'`, i)
      const start = i++
      while (i < source.length && NUMBER_PART.test(source[i])) i++
      const text = source.slice(start, i)
      if (!NUMBER.test(text)) throw new WhereSyntaxError(`Invalid number '${text}'`, start)
      tokens.push({ kind: 'number', text, position: start })
    } else if (c === '=' || c === '<' || c === '>') {
      const text = source[i + 1] === '=' && c !== '=' ? c + '=' : c
      tokens.push({ kind: 'op', text, position: i })
      i += text.length
    } else if (c === '!' && source[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '!=', position: i })
      i += 2
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c, text: c, position: i })
      i++
    } else {
      throw new WhereSyntaxError(`Unexpected character ${describeChar(String.fromCodePoint(source.codePointAt(i) ?? 0))}`, i)
    }
  }
  tokens.push({ kind: 'end', text: '', position: source.length })
  return tokens
}

/**
 * Reads a quoted string starting at `start` (the quote). The quote character is escaped by doubling
 * it (SQL style, `'It''s'`) or with a backslash (`'It\'s'`); `\\` is one backslash. Any other
 * backslash is kept as is, so Windows paths and regex-looking values need no escaping.
 */
function readQuoted (source: string, start: number): { text: string, end: number } {
  const quote = source[start]
  let text = ''
  let i = start + 1
  while (i < source.length) {
    const c = source[i]
    const next = source[i + 1]
    if (c === '\\' && (next === quote || next === '\\')) {
      text += next
      i += 2
    } else if (c === quote && next === quote) {
      text += quote
      i += 2
    } else if (c === quote) {
      return { text, end: i + 1 }
    } else {
      text += c
      i++
    }
  }
  throw new WhereSyntaxError('Unterminated string starting', start)
}

function describeChar (c: string): string {
  const code = c.codePointAt(0) ?? 0
  // Control characters would be invisible (or break the log line) if printed raw.
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`
}
