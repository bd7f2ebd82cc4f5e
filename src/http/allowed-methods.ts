import type { RouteOptions } from 'fastify'

/**
 * The methods the route table serves at a path, for the 405 of a wrong method on an existing path
 * (RFC 9110 §15.5.6: `Allow` lists them). Matched like the router does: on the decoded path, a trailing
 * slash ignored, `:name` one segment, `*` the rest. Built once, on the first wrong method.
 */
export function allowedMethods (routes: readonly RouteOptions[]): (url: string) => string[] {
  let patterns: Array<{ pattern: RegExp, methods: string[] }> | undefined
  return (url) => {
    patterns ??= routes.map((route) => ({ pattern: patternOf(route.url), methods: [route.method].flat() }))
    const path = decodedPath(url)
    const found = new Set<string>()
    for (const { pattern, methods } of patterns) {
      if (pattern.test(path)) for (const method of methods) found.add(method)
    }
    return [...found].sort()
  }
}

/** The route pattern as a regular expression over a decoded path. */
export function patternOf (url: string): RegExp {
  const source = url.split('/').map((segment) => {
    if (segment === '*') return '.*'
    if (segment.startsWith(':')) return '[^/]+'
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }).join('/')
  return new RegExp(`^${source}$`)
}

/** The path as the router matches it: decoded, without the query or a trailing slash. */
export function decodedPath (url: string): string {
  const raw = url.split('?', 1)[0] as string
  const path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}
