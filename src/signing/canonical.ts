/**
 * The query string as the signature sees it (docs/api.md, "Signing"): keys and values
 * percent-decoded with `+` as a space, in the order received.
 */
export type QueryPairs = Array<[key: string, value: string]>

export class QueryParseError extends Error {}

function decode (part: string): string {
  // Most keys and values hold nothing to decode; skipping them is most of the cost of a signed request's query.
  if (part.indexOf('%') === -1 && part.indexOf('+') === -1) return part
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '))
  } catch {
    throw new QueryParseError(`Malformed percent-encoding in query string: ${part.slice(0, 64)}`)
  }
}

/** Splits a raw query string (without `?`) into decoded pairs. Empty segments (`a=1&&b=2`) are skipped. */
export function parseQueryPairs (rawQuery: string): QueryPairs {
  const pairs: QueryPairs = []
  if (rawQuery === '') return pairs
  for (const segment of rawQuery.split('&')) {
    if (segment === '') continue
    const eq = segment.indexOf('=')
    pairs.push(eq === -1 ? [decode(segment), ''] : [decode(segment.slice(0, eq)), decode(segment.slice(eq + 1))])
  }
  return pairs
}

/** Keys that appear more than once, in order of first repetition. */
export function duplicatedKeys (pairs: QueryPairs): string[] {
  const seen = new Set<string>()
  const dupes = new Set<string>()
  for (const [key] of pairs) {
    if (seen.has(key)) dupes.add(key)
    seen.add(key)
  }
  return [...dupes]
}

/** `key=value` for every parameter except `signature`, sorted by key, joined with nothing. */
export function canonicalParameters (pairs: QueryPairs): string {
  const signed = pairs.filter(([key]) => key !== 'signature').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  let text = ''
  for (const [key, value] of signed) text += key + '=' + value
  return text
}

/** On these methods a stray body is ignored and signed as empty (docs/api.md, "Signing"). */
export function methodSignsBody (method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'DELETE'
}

/**
 * `expires` as Unix seconds (docs/api.md, "Signing"), or undefined when it is not a plain integer. There is
 * no upper bound: clients send seconds, milliseconds and URLs valid for years (docs/api.md, "Signing").
 */
export function expiresSeconds (value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,30}$/.test(value) ? Number(value) : undefined
}
