import type { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'

export interface BodyDeadline {
  /** Time any request body gets, whatever its size (ms). */
  allowanceMs: number
  /** The slowest average rate a long body may arrive at, beyond the allowance (bytes a second). */
  minBytesPerSecond: number
}

/**
 * Watches the body of a request as it arrives: a body must be complete within the allowance plus the
 * time its declared length takes at the minimum rate (a chunked body, of unknown length, gets the
 * allowance). A body still arriving after that is refused with `onLate` (our 408, then the connection
 * closes). A fixed limit for the whole request would cut a large upload chunk on an ordinary link,
 * while a slow trickle could hold a connection for ever without any: this bounds both
 * (docs/configuration.md, REQUEST_BODY_TIMEOUT_SECONDS and REQUEST_BODY_MIN_RATE).
 * Requests without a body cost one header check. A request with no connection of its own (one injected
 * by the tests, whose stand-in socket is not a `net.Socket`) holds nothing open: it is not watched.
 */
export function watchBody (raw: IncomingMessage, deadline: BodyDeadline, onLate: (socket: Socket) => void): void {
  const declared = raw.headers['content-length']
  if (raw.complete || (declared === undefined ? raw.headers['transfer-encoding'] === undefined : declared === '0')) return
  if (!(raw.socket instanceof Socket)) return
  const length = declared === undefined ? 0 : Number(declared)
  const ms = deadline.allowanceMs + (Number.isFinite(length) ? length / deadline.minBytesPerSecond * 1000 : 0)
  const timer = setTimeout(() => {
    if (!raw.complete && !raw.socket.destroyed) onLate(raw.socket)
  }, Math.min(ms, 2 ** 31 - 1))
  timer.unref()
  const stop = (): void => { clearTimeout(timer) }
  raw.once('end', stop)
  raw.once('close', stop)
}
