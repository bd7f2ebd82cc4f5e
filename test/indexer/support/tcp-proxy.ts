import { createServer, connect, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  port: number
  /** The broker "goes away": stop accepting and drop every open connection. */
  cut: () => Promise<void>
  /** It is back, on the same port. */
  resume: () => Promise<void>
  close: () => Promise<void>
}

/** A TCP proxy to `host:port` that a test can cut, to take a broker away from one client only. */
export async function startTcpProxy (host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let listenPort = 0
  const listen = async (): Promise<void> => {
    server = createServer((client) => {
      const upstream = connect(port, host)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => { sockets.delete(socket) })
        socket.on('error', () => { client.destroy(); upstream.destroy() })
      }
      client.pipe(upstream)
      upstream.pipe(client)
    })
    await new Promise<void>((resolve) => server?.listen(listenPort, '127.0.0.1', resolve))
    listenPort = (server.address() as { port: number }).port
  }
  const stop = async (): Promise<void> => {
    const closing = new Promise<void>((resolve) => { if (server === undefined) resolve(); else server.close(() => { resolve() }) })
    for (const socket of sockets) socket.destroy()
    await closing
    server = undefined
  }
  await listen()
  return { port: listenPort, cut: stop, resume: listen, close: stop }
}
