import { connect, createServer, type AddressInfo, type Socket } from 'node:net'

export interface DroppingProxy {
  /** `http://127.0.0.1:<port>`: use it as the client's baseUrl. */
  url: string
  /** Connections accepted so far: one per attempt of a request. */
  connections: () => number
  close: () => Promise<void>
}

/**
 * A TCP proxy in front of a real server that cuts its first `drops` connections the moment the
 * server starts to answer: the server has received and handled the request, the client gets no
 * answer. Later connections pass through untouched.
 */
export async function droppingProxy (target: string, drops = 1): Promise<DroppingProxy> {
  const { hostname, port } = new URL(target)
  let accepted = 0
  const open = new Set<Socket>()
  const server = createServer((client) => {
    accepted += 1
    const upstream = connect(Number(port), hostname)
    for (const socket of [client, upstream]) {
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      socket.on('error', () => {})
    }
    client.pipe(upstream)
    if (accepted <= drops) {
      upstream.once('data', () => { client.destroy(); upstream.destroy() })
    } else {
      upstream.pipe(client)
    }
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => accepted,
    close: async () => {
      for (const socket of open) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
