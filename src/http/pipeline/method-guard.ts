import type { RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../../errors/api-error.ts'
import { allowedMethods, decodedPath, patternOf } from '../allowed-methods.ts'
import type { Pipeline } from './steps.ts'

export interface MethodGuardOptions {
  pipeline: Pipeline
  /** Every route of the app, filled as they are declared (read once the app is ready). */
  routes: readonly RouteOptions[]
}

/**
 * A method the path does not take is a 405 with `Allow` (RFC 9110 §15.5.5), before anything else: no
 * signature is checked and nothing is charged for it. Two cases reach here: no route serves the method
 * at that path (`TRACE /v2/labels`), and the method is served only by a route with a parameter that a
 * fixed path shadows for the other methods (`DELETE /v2/users/me` would reach `DELETE /v2/users/:user_id`).
 */
export const methodGuard = fp<MethodGuardOptions>(async (app, { pipeline, routes }) => {
  const allowedAt = allowedMethods(routes)
  /** The methods of each fixed path (no parameter), by its path. */
  let fixedPaths: Map<string, string[]> | undefined

  pipeline.step('onRequest', 'method', (policy, methods) => {
    if (policy.url === undefined) {
      return (request, _reply, done) => {
        const allowed = allowedAt(request.url)
        done(allowed.length > 0 ? notAllowed(request.method, request.url, allowed) : undefined)
      }
    }
    if (!policy.url.includes(':')) return undefined
    const pattern = patternOf(policy.url)
    /** The fixed paths this route's pattern also matches whose routes lack the request's method: found once. */
    let shadowed: Map<string, string[]> | undefined
    return (request, _reply, done) => {
      shadowed ??= shadowedBy(pattern, methods)
      if (shadowed.size === 0) {
        done()
        return
      }
      const allowed = shadowed.get(decodedPath(request.url))
      done(allowed !== undefined && !allowed.includes(request.method) ? notAllowed(request.method, request.url, allowed) : undefined)
    }
  })

  function shadowedBy (pattern: RegExp, methods: readonly string[]): Map<string, string[]> {
    fixedPaths ??= fixedPathsOf(routes)
    const found = new Map<string, string[]>()
    for (const [path, allowed] of fixedPaths) {
      if (pattern.test(path) && methods.some((method) => !allowed.includes(method))) found.set(path, allowed)
    }
    return found
  }
}, { name: 'reelhouse-method-guard' })

function notAllowed (method: string, url: string, allowed: readonly string[]): ApiError {
  const path = url.split('?', 1)[0] as string
  return new ApiError('method_not_allowed', `${method} is not allowed on ${path}; it takes ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') })
}

function fixedPathsOf (routes: readonly RouteOptions[]): Map<string, string[]> {
  const paths = new Map<string, Set<string>>()
  for (const route of routes) {
    if (route.url.includes(':') || route.url.includes('*')) continue
    const methods = paths.get(route.url) ?? new Set<string>()
    for (const method of [route.method].flat()) methods.add(method)
    paths.set(route.url, methods)
  }
  return new Map([...paths].map(([path, methods]) => [path, [...methods].sort()]))
}
