import fp from 'fastify-plugin'
import { parseJsonBody } from '../body.ts'
import type { Pipeline } from './steps.ts'

export interface BodyOptions {
  pipeline: Pipeline
  bodyLimit: number
}

const BODYLESS = new Set(['GET', 'HEAD'])
const takesBody = (methods: readonly string[]): boolean => methods.some((method) => !BODYLESS.has(method))

/**
 * Bodies are JSON whatever the Content-Type says (docs/api.md, "Signing"), and are hashed as the raw
 * bytes received: every content type is read as a Buffer, kept as `signed.body` for the signature
 * (the `rawBody` step), and parsed only once the request is authenticated and charged (the `jsonBody`
 * step). Routes whose methods carry no body (GET, HEAD: Fastify reads none) get neither step.
 */
export const bodySteps = fp<BodyOptions>(async (app, { pipeline, bodyLimit }) => {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => { done(null, body) })

  pipeline.step('preValidation', 'rawBody', (_policy, methods) => takesBody(methods)
    ? (request, _reply, done) => {
        if (Buffer.isBuffer(request.body)) request.signed.body = request.body
        done()
      }
    : undefined)

  pipeline.step('preValidation', 'jsonBody', (policy, methods) => {
    if (!takesBody(methods)) return undefined
    return (request, _reply, done) => {
      // Raw bytes or the stream, for the routes that ask (uploads, the NDJSON import); read at request
      // time, since the policy is settled only once every route is declared.
      const { config } = policy
      if (config.rawBody === true || config.streamBody === true) {
        done()
        return
      }
      const method = request.method
      if (method === 'GET' || method === 'HEAD' || method === 'DELETE') {
        request.body = undefined
        done()
        return
      }
      try {
        request.body = parseJsonBody(request.signed.body)
      } catch (error) {
        done(error as Error)
        return
      }
      done()
    }
  })
}, { name: 'reelhouse-body' })
