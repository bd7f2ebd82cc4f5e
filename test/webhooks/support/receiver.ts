import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface Received {
  id: string
  body: string
  headers: IncomingHttpHeaders
}

/**
 * A webhook receiver on loopback that verifies every delivery with the `standardwebhooks` package (the
 * reference implementation of the specification) against the given secrets, as a real receiver would.
 * `answer` decides the status of a delivery that verified; one that did not is answered 401 and kept
 * in `rejected`.
 */
export class Receiver {
  readonly received: Received[] = []
  readonly rejected: Array<{ headers: IncomingHttpHeaders, reason: string }> = []
  answer: (delivery: Received) => number | Promise<number> = () => 204
  secrets: string[]
  #server: Server
  #waiters: Array<() => void> = []

  private constructor (secrets: string[]) {
    this.secrets = secrets
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const failures: string[] = []
        for (const secret of this.secrets) {
          try {
            new Webhook(secret).verify(body, req.headers as Record<string, string>)
          } catch (error) {
            failures.push((error as Error).message)
          }
        }
        if (failures.length > 0) {
          this.rejected.push({ headers: req.headers, reason: failures.join('; ') })
          res.writeHead(401).end('signature')
          this.#wake()
          return
        }
        const delivery = { id: String(req.headers['webhook-id']), body, headers: req.headers }
        Promise.resolve(this.answer(delivery)).then((status) => {
          if (status >= 200 && status < 300) this.received.push(delivery)
          res.writeHead(status, status === 302 ? { location: 'http://10.0.0.1/elsewhere' } : {}).end('ok')
          this.#wake()
        }, () => { res.writeHead(500).end() })
      })
    })
  }

  /** A receiver listening on a free loopback port; every secret given must verify each delivery. */
  static async start (secrets: string[]): Promise<Receiver> {
    const receiver = new Receiver(secrets)
    await new Promise<void>((resolve) => receiver.#server.listen(0, '127.0.0.1', resolve))
    return receiver
  }

  get url (): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hooks`
  }

  /** Distinct event ids received (answered 2xx). */
  ids (): Set<string> {
    return new Set(this.received.map((d) => d.id))
  }

  /** Resolves once `done()` holds, re-checked after each request (no timed waits). */
  async until (done: () => boolean): Promise<void> {
    while (!done()) await new Promise<void>((resolve) => this.#waiters.push(resolve))
  }

  #wake (): void {
    const waiters = this.#waiters
    this.#waiters = []
    for (const wake of waiters) wake()
  }

  async close (): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise<void>((resolve) => this.#server.close(() => { resolve() }))
  }
}
