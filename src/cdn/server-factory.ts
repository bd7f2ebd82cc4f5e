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
    const toPipeline = (request: IncomingMessage, response: ServerResponse): void => {
      markLookedUp(request)
      handler(request, response)
    }
    const server = createServer((request, response) => {
      // Only signed answers under /v2/ are ever stored (the lane says so too): the rest, media files
      // above all, go straight to the pipeline without a turn through the lane.
      if (request.url?.startsWith('/v2/') !== true) {
        toPipeline(request, response)
        return
      }
      let answered: boolean | Promise<boolean>
      try {
        answered = hits(request, response, log())
      } catch (error) {
        answered = laneFailed(error, response, log())
      }
      // An in-process hit is answered at once: no promise, no turn of the event loop. No closure is named
      // per request either: esbuild's keepNames (tsx, and bin/bundle.mjs) defines each one's `name`.
      if (answered === false) toPipeline(request, response)
      else if (answered !== true) {
        answered.catch((error: unknown) => laneFailed(error, response, log())).then((hit) => { if (!hit) toPipeline(request, response) })
      }
    })
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout)
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout
    return server
  }
}

/** Logs a failure of the hit lane; says whether it had begun to answer (the full pipeline then cannot). */
function laneFailed (error: unknown, response: ServerResponse, log: FastifyBaseLogger | undefined): boolean {
  log?.error({ err: error }, 'the cache hit lane failed; answering through the full pipeline')
  return response.headersSent
}
