import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from '../errors/api-error.ts'
import { routeOf } from './request-types.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Bodies are JSON whatever the Content-Type says (docs/api.md, "Signing"), and must be hashed as the raw bytes
 * received, so every content type is read as a Buffer; JSON is parsed after the signature is checked.
 */
export function registerRawBodyParser (app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => { done(null, body) })
}

/**
 * Parses the raw body as UTF-8 JSON. An empty body, `""` and `{}` all mean "no fields". Invalid UTF-8,
 * trailing bytes after the JSON value and control characters outside strings are rejected here,
 * before any write (the signing scheme is open to length extension: docs/api.md, "Signing").
 */
export function parseJsonBody (raw: Buffer | undefined): unknown {
  if (raw === undefined || raw.length === 0) return {}
  let text: string
  try {
    text = utf8.decode(raw)
  } catch {
    throw new ApiError('body_malformed', 'Request body must be UTF-8 encoded JSON.')
  }
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ApiError('body_malformed', 'Request body is not valid JSON.')
  }
  return value === '' ? {} : value
}

/** Keeps the raw bytes for the signature check; the body is parsed only once the request is authenticated. */
export function captureRawBody (request: FastifyRequest): void {
  request.rawBody = Buffer.isBuffer(request.body) ? request.body : undefined
}

/** Replaces the raw Buffer with the parsed JSON (or keeps raw bytes or the stream when the route asks for them). */
export function parseBodyOf (request: FastifyRequest): void {
  const config = routeOf(request).config
  if (config.rawBody === true || config.streamBody === true) return
  const method = request.method
  if (method === 'GET' || method === 'HEAD' || method === 'DELETE') {
    request.body = undefined
    return
  }
  request.body = parseJsonBody(request.rawBody)
}
