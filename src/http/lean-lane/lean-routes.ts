import type { FastifyContextConfig, RouteOptions } from 'fastify'
import type { RouteAccess } from '../../auth/roles.ts'
import type { LeanRead } from '../request-types.ts'
import type { WrittenAnswers, Written } from '../serialised-once.ts'

/** A route the lean lane answers: `GET <prefix><id>` (and its HEAD), read from memory by `peek`. */
export interface LeanRoute {
  /** The route's pattern, as its serializer and the cost table know it (`/v2/players/:player_id`). */
  url: string
  permission: RouteAccess
  peek: LeanRead['peek']
  /** The JSON the route's serializer has already written for an answer of `peek`, by method. */
  written: Record<'GET' | 'HEAD', (answer: object) => Written | undefined>
}

/**
 * What an id in a path may hold for the lane to take it: nothing to decode, nothing the router would read
 * differently, and no longer than the router takes a parameter (Fastify's `maxParamLength`, 100).
 */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,100}$/

/**
 * Finds the lean route a raw path names, the way the router would, or nothing. Only routes shaped
 * `<fixed prefix>/:param` with their own signed permission are offered (others are refused at start),
 * and only paths the router reads exactly as written: no percent-encoding, no trailing slash, not a
 * fixed path another route serves (`/v2/users/me` beside `/v2/users/:user_id`, whatever its methods).
 */
export function leanRoutes (routes: readonly RouteOptions[], written: WrittenAnswers): (path: string) => { route: LeanRoute, id: string } | undefined {
  const byPrefix = new Map<string, LeanRoute>()
  const fixed = new Set<string>()
  for (const route of routes) {
    if (!route.url.includes(':') && !route.url.includes('*')) fixed.add(route.url)
    const config = (route.config ?? {}) as FastifyContextConfig
    if (config.lean === undefined) continue
    const methods = [route.method].flat()
    const slash = route.url.lastIndexOf('/')
    const prefix = route.url.slice(0, slash + 1)
    if (methods.some((method) => method !== 'GET' && method !== 'HEAD') || route.url.slice(slash + 1) !== `:${config.lean.param}` ||
        /[:*]/.test(prefix) || config.permission === undefined || config.public === true) {
      throw new Error(`route ${String(route.method)} ${route.url}: the lean lane takes only signed GETs of <fixed path>/:${config.lean.param}`)
    }
    byPrefix.set(prefix, { url: route.url, permission: config.permission, peek: config.lean.peek, written: { GET: written.reader('GET', route.url), HEAD: written.reader('HEAD', route.url) } })
  }
  // The fixed paths under each lean prefix (`/v2/users/` has `me`): most have none, and then no path is looked up.
  const fixedUnder = new Map<LeanRoute, Set<string>>()
  for (const path of fixed) {
    const route = byPrefix.get(path.slice(0, path.lastIndexOf('/') + 1))
    if (route !== undefined) fixedUnder.set(route, (fixedUnder.get(route) ?? new Set()).add(path))
  }
  return (path) => {
    const slash = path.lastIndexOf('/')
    const route = byPrefix.get(path.slice(0, slash + 1))
    if (route === undefined) return undefined
    const id = path.slice(slash + 1)
    return PLAIN_ID.test(id) && fixedUnder.get(route)?.has(path) !== true ? { route, id } : undefined
  }
}
