/**
 * The one place that says what a request costs (docs/credits-and-cache.md). The docs table is generated from
 * `COST_TABLE` with `costTableMarkdown()`, so code and docs cannot drift apart.
 */

/** Query parameters in any of the shapes the app holds them: decoded pairs, URLSearchParams, or a parsed object. */
export type QueryLike = Iterable<readonly [string, string]> | Readonly<Record<string, unknown>>

export interface CostRule {
  /** The requests the rule covers, as the docs show them. */
  readonly request: string
  readonly cost: number
  /** Why the request costs this much (shown in the docs). */
  readonly reason: string
  /** `path` is normalised: no query string, no trailing slash. */
  readonly matches: (method: string, path: string, query: QueryLike) => boolean
}

/** What every request not listed in the table costs, including requests that end in an error. */
export const DEFAULT_COST = 1

const CREDITS_PATH = '/v2/remaining_credits_and_reset_time'
const REPORTS_PATH = '/v2/analytics/reports'
const ASSETS_PATH = '/v2/assets'

/** First matching rule wins; anything else costs DEFAULT_COST. */
export const COST_TABLE: readonly CostRule[] = [
  {
    request: `any method on \`${CREDITS_PATH}\``,
    cost: 0,
    reason: 'checking the balance must never use it up, even when it is empty',
    matches: (_method, path) => path === CREDITS_PATH
  },
  {
    request: `any method on \`${REPORTS_PATH}\` and the path form \`${REPORTS_PATH}/...\``,
    cost: 5,
    reason: 'a report aggregates events over a date range',
    matches: (_method, path) => path === REPORTS_PATH || path.startsWith(REPORTS_PATH + '/')
  },
  {
    request: `\`GET\` or \`HEAD\` \`${ASSETS_PATH}\` whose \`where\` has a text predicate (\`name\`, \`description\` or \`INCLUDES\`)`,
    cost: 2,
    reason: 'text predicates are answered from the search index',
    matches: (method, path, query) =>
      path === ASSETS_PATH && (method === 'GET' || method === 'HEAD') && hasTextPredicate(queryValue(query, 'where'))
  }
]

/**
 * Credits a request costs. `pathOrPattern` may be the request path (with or without its query
 * string) or the route pattern (`/v2/analytics/reports/*`); both give the same answer.
 * @example costOf('GET', '/v2/assets', { where: "name='trailer'" }) // 2
 */
export function costOf (method: string, pathOrPattern: string, query: QueryLike = {}): number {
  const path = normalisePath(pathOrPattern)
  const upper = method.toUpperCase()
  for (const rule of COST_TABLE) {
    if (rule.matches(upper, path, query)) return rule.cost
  }
  return DEFAULT_COST
}

/** The cost table as Markdown rows for docs/ (`| Request | Credits | Why |`). */
export function costTableMarkdown (): string {
  const rows = COST_TABLE.map((rule) => `| ${rule.request} | ${rule.cost} | ${rule.reason} |`)
  rows.push(`| every other request | ${DEFAULT_COST} | the default |`)
  return ['| Request | Credits | Why |', '|---|---|---|', ...rows].join('\n')
}

/** Strips the query string and one trailing slash without allocating when there is neither. */
function normalisePath (path: string): string {
  const q = path.indexOf('?')
  const bare = q === -1 ? path : path.slice(0, q)
  return bare.length > 1 && bare.endsWith('/') ? bare.slice(0, -1) : bare
}

function queryValue (query: QueryLike, name: string): string | undefined {
  if (Symbol.iterator in query) {
    for (const [key, value] of query as Iterable<readonly [string, string]>) if (key === name) return value
    return undefined
  }
  const value = (query as Readonly<Record<string, unknown>>)[name]
  if (typeof value === 'string') return value
  // Fastify gives an array for a repeated key; the request fails with 400 later, the first value is enough here.
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined
}

const TEXT_WORDS = new Set(['name', 'description', 'includes'])
const QUOTE = 0x27 // '
const BACKSLASH = 0x5c

/**
 * Whether a `where` expression holds a text predicate: the bare field `name` or `description`, or
 * the `INCLUDES` operator (docs/search-and-indexing.md, "`where` text predicates on assets"), outside
 * quoted values. This is a scan, not the parser:
 * a malformed expression is refused later by the parser, so its cost here does not matter.
 * `metadata.name` is one token and is not a text field.
 */
export function hasTextPredicate (where: string | undefined): boolean {
  if (where === undefined || where === '') return false
  const n = where.length
  let i = 0
  while (i < n) {
    const c = where.charCodeAt(i)
    if (c === QUOTE) {
      i++
      // A quoted value ends at an unescaped quote; both '' and \' escape one.
      while (i < n) {
        const d = where.charCodeAt(i)
        if (d === BACKSLASH) { i += 2; continue }
        if (d === QUOTE) {
          if (where.charCodeAt(i + 1) === QUOTE) { i += 2; continue }
          break
        }
        i++
      }
      i++
    } else if (isWordStart(c)) {
      const start = i
      while (i < n && isWordPart(where.charCodeAt(i))) i++
      if (TEXT_WORDS.has(where.slice(start, i).toLowerCase())) return true
    } else {
      i++
    }
  }
  return false
}

function isWordStart (c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f
}

function isWordPart (c: number): boolean {
  return isWordStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e
}
