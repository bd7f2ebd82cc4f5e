import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

export interface ConnectionLimits {
  /** Time a request's headers get to arrive, a connection's first ones counted from when it opens (ms). */
  headersTimeoutMs: number
  /** Time a stopping listener gives requests in flight before it closes every connection left (ms). */
  graceMs: number
}

/** How often a stopping listener closes the connections its finished requests left idle (ms). */
const SWEEP_MS = 200

/**
 * Bounds what slow or stalled clients can hold on one listener, beyond Fastify's own timeouts
 * (docs/configuration.md, "Connections"), and answers the function that stops it. Call it before the
 * listener listens: Node reads the checking interval when listening starts.
 *
 * - Headers: Node looks for expired headers only every `connectionsCheckingInterval` (30 s by default),
 *   so a 15 s limit would be answered after up to 45 s. Here it looks every second (four times within a
 *   shorter limit): the 408 comes at most a second late.
 * - Stopping: Fastify stops accepting, answers 503 to requests that start, and closes idle connections;
 *   but `server.close()` then waits for every other connection — a TLS one that never handshakes, headers
 *   or a body that stall (Node stops its header checks once closing) — however long they take. So the
 *   connections that go idle as their requests finish are closed as they do, and when the grace period
 *   ends every connection still open is destroyed, a request that has not finished by then included.
 */
export function guardConnections (app: FastifyInstance, limits: ConnectionLimits): () => Promise<void> {
  const server = app.server as Server & { connectionsCheckingInterval: number }
  server.headersTimeout = limits.headersTimeoutMs
  server.connectionsCheckingInterval = Math.min(1000, Math.ceil(limits.headersTimeoutMs / 4))
  // Each connection's TCP socket, from its first byte: a TLS one before its handshake too, which the
  // HTTP layer does not see yet.
  const open = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    open.add(socket)
    socket.once('close', () => { open.delete(socket) })
  })
  let stopping: Promise<void> | undefined
  return async () => {
    stopping ??= (async () => {
      const sweep = setInterval(() => { server.closeIdleConnections() }, SWEEP_MS)
      const cut = setTimeout(() => { for (const socket of open) socket.destroy() }, limits.graceMs)
      try {
        await app.close()
      } finally {
        clearInterval(sweep)
        clearTimeout(cut)
      }
    })()
    await stopping
  }
}
