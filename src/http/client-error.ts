import { randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'
import { ApiError } from '../errors/index.ts'
import { problemBody } from '../errors/problem.ts'

/**
 * Answers a request the HTTP parser refused (both Content-Length and Transfer-Encoding, two or a negative
 * Content-Length, bytes after a body that make no request, headers too large, a request too slow) in our
 * error format, with a request id, and with `Connection: close`: the socket is destroyed next, and a
 * client must not send its next request on it (RFC 9112 §11.2: framing that cannot be trusted closes
 * the connection). Written as raw bytes, since no request object exists.
 */
export function clientErrorHandler (log: () => FastifyBaseLogger | undefined, errorReference: string): (error: NodeJS.ErrnoException, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    // A TLS connection that failed or timed out its handshake cannot carry an HTTP answer: a response
    // written to it would wait for a handshake that never comes, and the socket with it.
    if (isTlsFailure(error.code)) {
      socket.destroy()
      return
    }
    const apiError = problemOf(error.code)
    const requestId = randomUUID()
    log()?.info({ reqId: requestId, code: error.code }, 'refused a malformed request')
    if (socket.writable) {
      const body = JSON.stringify(problemBody(apiError, requestId, errorReference))
      socket.write(`HTTP/1.1 ${apiError.status} ${REASONS[apiError.status] ?? 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' + body)
    }
    socket.destroySoon()
  }
}

function isTlsFailure (code: string | undefined): boolean {
  return code !== undefined && (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_'))
}

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }

function problemOf (code: string | undefined): ApiError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT': return new ApiError('request_timeout', 'The request was not received in time.')
    case 'HPE_HEADER_OVERFLOW': return new ApiError('headers_too_large', 'The request headers are too large.')
    default: return new ApiError('bad_request', 'The request could not be read: its framing (Content-Length, Transfer-Encoding, request line) is malformed.')
  }
}
