import type { Socket } from 'node:net'
import fp from 'fastify-plugin'
import { ApiError } from '../../errors/api-error.ts'
import { watchBody, type BodyDeadline } from '../body-deadline.ts'
import type { Pipeline } from './steps.ts'

export interface RequestIdOptions {
  pipeline: Pipeline
  /** The request body's deadline (REQUEST_BODY_TIMEOUT_SECONDS, REQUEST_BODY_MIN_RATE). */
  bodyDeadline: BodyDeadline
  /** Answers a body that arrives too slowly (our 408, then the connection closes). */
  late: (socket: Socket) => void
  /** Behind a TLS-terminating proxy (TRUST_PROXY), only requests that reached it over HTTPS are served (the main service only). */
  httpsOnly: boolean
}

/**
 * First of every request, matched or not: `X-Request-Id` (the client's when sane, see `requestIdOf`,
 * Fastify's `genReqId`), the body's deadline, and the HTTPS rule.
 */
export const requestIdStep = fp<RequestIdOptions>(async (app, { pipeline, bodyDeadline, late, httpsOnly }) => {
  // A callback, not a promise: every request passes here.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    watchBody(request.raw, bodyDeadline, late)
    done()
  })
  if (!httpsOnly) return
  pipeline.step('onRequest', 'https', () => (request, _reply, done) => {
    done(request.protocol === 'https' ? undefined : new ApiError('https_required', 'HTTPS is required.'))
  })
}, { name: 'reelhouse-request-id' })
