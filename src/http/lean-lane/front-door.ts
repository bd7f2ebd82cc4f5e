import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer, type ServerOptions as TlsServerOptions } from 'node:https'
import type { FastifyBaseLogger } from 'fastify'
import type { LeanLane } from './lean-lane.ts'

const INFO_OR_MORE = new Set(['info', 'debug', 'trace'])

interface ServerOptions { https?: TlsServerOptions, connectionTimeout?: number, keepAliveTimeout?: number, requestTimeout?: number }

/** What the front door asks before each request: the lane while the app serves, nothing once it closes. */
export interface FrontDoorState {
  lane: LeanLane | undefined
  log: () => FastifyBaseLogger | undefined
}

/**
 * Fastify's `serverFactory` for the main service: the server Fastify would make (HTTPS with the app's
 * certificate, or plain HTTP behind nothing), whose signed GETs under `/v2/` meet the lean lane first;
 * whatever the lane does not answer goes to Fastify's handler unchanged. Until the app is ready, and from
 * the moment it starts closing, `state.lane` is unset and every request goes to Fastify (whose 503 while
 * closing then holds for all).
 */
export function leanServerFactory (state: FrontDoorState) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void, options: ServerOptions): Server => {
    const listener = (request: IncomingMessage, response: ServerResponse): void => {
      const lane = state.lane
      if (lane === undefined || request.url?.startsWith('/v2/') !== true) {
        handler(request, response)
        return
      }
      const log = state.log()
      const started = log !== undefined && INFO_OR_MORE.has(log.level) ? performance.now() : undefined
      let id: string | undefined
      try {
        id = lane(request, response)
      } catch (error) {
        log?.error({ err: error }, 'the lean lane failed; answering through the full pipeline')
        // Half an answer cannot be taken back: the connection goes.
        if (response.headersSent) {
          response.destroy()
          return
        }
      }
      if (id === undefined) handler(request, response)
      // The line Fastify's logging writes for every request (src/http/logging.ts).
      else if (log !== undefined && started !== undefined) {
        log.info({ reqId: id, req: { method: request.method, url: request.url, ip: request.socket.remoteAddress, id }, res: { statusCode: 200 }, responseTime: performance.now() - started }, 'request completed')
      }
    }
    const server = options.https === undefined ? createHttpServer(listener) : createHttpsServer(options.https, listener)
    // Fastify's own settings for the servers it makes (fastify/lib/server.js).
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout)
    return server
  }
}
