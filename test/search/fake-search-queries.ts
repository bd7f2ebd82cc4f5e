// The query DSL subset the stand-in evaluates: bool (filter/must), term, terms, match (and/or), match_phrase
// and match_all. Text is analysed like our `folded` analyzer (lowercase + ASCII folding), and only
// fields the mapping indexes can match, as `dynamic: false` makes the real engines do.

export type Source = Record<string, unknown>

export function analyse (value: unknown): string[][] {
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
  return values.map((text) => String(text).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
    .split(/[^\p{L}\p{N}]+/u).filter((token) => token !== ''))
}

export function matches (query: Record<string, any>, source: Source, mappings: Record<string, any>): boolean {
  const [kind, spec] = Object.entries(query)[0] as [string, any]
  const indexed = (field: string): boolean => mappings.dynamic !== false || field in (mappings.properties ?? {})
  switch (kind) {
    case 'match_all':
      return true
    case 'bool':
      return [...(spec.filter ?? []), ...(spec.must ?? [])].every((clause: Record<string, any>) => matches(clause, source, mappings))
    case 'term': {
      const [field, value] = Object.entries(spec as object)[0] as [string, unknown]
      const actual = source[field]
      return indexed(field) && (Array.isArray(actual) ? actual.includes(value) : actual === value)
    }
    case 'terms': {
      const [field, values] = Object.entries(spec as object)[0] as [string, unknown[]]
      const actual = source[field]
      return indexed(field) && (Array.isArray(actual) ? actual.some((value) => values.includes(value)) : values.includes(actual))
    }
    case 'match': {
      const [field, options] = Object.entries(spec as object)[0] as [string, any]
      const text = typeof options === 'object' ? options.query : options
      const wanted = analyse(text).flat()
      if (!indexed(field) || wanted.length === 0) return false
      const present = new Set(analyse(source[field]).flat())
      return options.operator === 'and' ? wanted.every((token) => present.has(token)) : wanted.some((token) => present.has(token))
    }
    case 'match_phrase': {
      const [field, text] = Object.entries(spec as object)[0] as [string, string]
      const wanted = analyse(text).flat()
      if (!indexed(field) || wanted.length === 0) return false
      // Each array element is its own token stream (position_increment_gap): no phrase spans two.
      return analyse(source[field]).some((tokens) => tokens.some((_, start) => wanted.every((token, k) => tokens[start + k] === token)))
    }
    default:
      throw new Error(`the stand-in does not implement the ${kind} query`)
  }
}
