import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'

/**
 * A loopback TCP proxy a test puts between a process and a server (Redis, RabbitMQ, PostgreSQL), so it
 * can cut the link mid-load and restore it: `cut()` drops every open connection and refuses new ones
 * (they are accepted and closed at once, as a dead peer looks to a client); `restore()` forwards again.
 */
export interface TcpProxy {
  port: number
  /** `redis://127.0.0.1:<port>` style URL: `url` with its host and port replaced by the proxy's. */
  through: (url: string) => string
  cut: () => void
  restore: () => void
  close: () => Promise<void>
}

export async function startTcpProxy (target: string): Promise<TcpProxy> {
  const { hostname, port: targetPort } = new URL(target)
  const open = new Set<Socket>()
  let cutOff = false
  const server: Server = createServer((client) => {
    if (cutOff) {
      client.destroy()
      return
    }
    const upstream = connect(Number(targetPort), hostname.replace(/^\[|\]$/g, ''))
    open.add(client)
    open.add(upstream)
    const drop = (): void => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    through: (url) => {
      const parsed = new URL(url)
      parsed.hostname = '127.0.0.1'
      parsed.port = String(port)
      return parsed.toString().replace(/\/$/, '')
    },
    cut: () => {
      cutOff = true
      for (const socket of open) socket.destroy()
      open.clear()
    },
    restore: () => { cutOff = false },
    close: async () => {
      cutOff = true
      for (const socket of open) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => { resolve() }))
    }
  }
}
