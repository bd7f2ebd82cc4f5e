import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

const SANE = /^[A-Za-z0-9._:@/+=-]{1,128}$/

/** The client's X-Request-Id when it is sane (short, printable, no spaces), else a fresh UUID. */
export function requestIdOf (request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && SANE.test(given) ? given : randomUUID()
}
