import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { markLookedUp, type HitLane } from './hit-lane.ts'

interface ServerTimeouts { connectionTimeout?: number, keepAliveTimeout?: number, requestTimeout?: number }

/**
 * Fastify's `serverFactory` for the cached variant: a plain HTTP server whose requests meet the hit
 * lane first; whatever the lane does not answer goes to Fastify's handler unchanged. The timeouts
 * are the ones Fastify applies to the servers it creates itself.
 */
export function cdnServerFactory (hits: HitLane, log: () => FastifyBaseLogger | undefined) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void, options: ServerTimeouts): Server => {
    const server = createServer((request, response) => {
      // Only signed answers under /v2/ are ever stored (the lane says so too): the rest, media files
      // above all, go straight to the pipeline without a turn through the lane.
      if (request.url?.startsWith('/v2/') !== true) {
        markLookedUp(request)
        handler(request, response)
        return
      }
      const failed = (error: unknown): boolean => {
        log()?.error({ err: error }, 'the cache hit lane failed; answering through the full pipeline')
        return response.headersSent
      }
      const then = (answered: boolean): void => {
        if (answered) return
        markLookedUp(request)
        handler(request, response)
      }
      let answered: boolean | Promise<boolean>
      try {
        answered = hits(request, response, log())
      } catch (error) {
        answered = failed(error)
      }
      // An in-process hit is answered at once: no promise, no turn of the event loop.
      if (typeof answered === 'boolean') then(answered)
      else answered.catch(failed).then(then)
    })
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout)
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout
    return server
  }
}
